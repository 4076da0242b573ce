// A background pass run now and again `intervalMs` after each one ends, until stopped: the loop of the webhook dispatcher,
// the chain monitor and the orphan sweeper. A failed pass is reported and the next one runs on time.
export class PollLoop {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private stopped = true;

  constructor(
    private readonly pass: () => Promise<unknown>,
    private readonly intervalMs: number,
    private readonly onError: (err: unknown) => void,
    /** unref: the pause between passes does not keep the process alive by itself. */
    private readonly opts: { unref?: boolean } = {},
  ) {}

  /** Runs the first pass now; a loop already running is left as it is. */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    const tick = () => {
      if (this.stopped) return;
      this.running = this.pass()
        .catch(this.onError)
        .then(() => {
          if (this.stopped) return;
          this.timer = setTimeout(tick, this.intervalMs);
          if (this.opts.unref) this.timer.unref();
        });
    };
    tick();
  }

  /** Starts no new pass and waits for the one running. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }
}
