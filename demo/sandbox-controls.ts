// The demo's sandbox controls: fund the session's customer's wallet and move the partner's clock, through the demo
// server's /demo/sandbox routes (the server holds the API key; the session names the customer).

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

/** Wires the controls; `session()` is the token bound to the customer, empty until onboarding created one. */
export function wireSandboxControls(session: () => string): { customerReady(ready: boolean): void } {
  const form = $<HTMLFormElement>('fund-form');
  const status = $<HTMLOutputElement>('sandbox-status');
  const buttons = [...document.querySelectorAll<HTMLButtonElement>('#fund-form button, button[data-advance]')];

  async function post(path: string, body: unknown): Promise<Record<string, unknown>> {
    const response = await fetch(path, {
      method: 'POST',
      headers: { authorization: `Bearer ${session()}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(body),
    });
    const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    if (!response.ok) throw new Error(typeof answer.detail === 'string' ? answer.detail : `${path} answered ${response.status}`);
    return answer;
  }

  async function run(what: () => Promise<string>): Promise<void> {
    for (const b of buttons) b.disabled = true;
    status.dataset.state = 'busy';
    try {
      const said = await what();
      status.dataset.state = 'ok';
      status.textContent = said;
    } catch (error) {
      status.dataset.state = 'error';
      status.textContent = error instanceof Error ? error.message : String(error);
    } finally {
      for (const b of buttons) b.disabled = !session();
    }
  }

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const blockchain = $<HTMLSelectElement>('fund-chain').value;
    const stablecoin = $<HTMLSelectElement>('fund-coin').value;
    const amount = $<HTMLInputElement>('fund-amount').value.trim();
    void run(async () => {
      const { balance } = await post('/demo/sandbox/fund', { blockchain, stablecoin, amount });
      return `Funded: the ${blockchain} wallet holds ${String(balance)} ${stablecoin}.`;
    });
  });
  for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-advance]')) {
    button.addEventListener('click', () =>
      void run(async () => {
        const { now } = await post('/demo/sandbox/clock', { seconds: Number(button.dataset.advance) });
        return `The sandbox clock now reads ${new Date(String(now)).toLocaleString()}.`;
      }),
    );
  }
  return {
    customerReady(ready) {
      for (const b of buttons) b.disabled = !ready;
      if (!ready) status.textContent = '';
    },
  };
}
