// Your backend's answer to `session-url`: a widget session for the user your own login says is signed in (never an id
// the browser sends). Ramp binds it to the customer it made for `externalUserId`, so a reload or a renewal resumes.
export async function rampSession(userId: string, ramp: { url: string; apiKey: string; origin: string }): Promise<{ token: string }> {
  const res = await fetch(`${ramp.url}/v2/widget-sessions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ramp.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({ externalUserId: userId, allowedOrigins: [ramp.origin] }),
  });
  if (!res.ok) throw new Error(`Ramp refused the widget session: ${res.status} ${await res.text()}`);
  const { token } = (await res.json()) as { token: string };
  return { token };
}
