// Reads by id that share statements under load: a customer read is one round trip, and under heavy load the round
// trips, not the statement, are what the server and the database spend their CPU on.
//
// A read joins its group's NEXT statement, never one already sent: a statement sent before a read arrived may answer
// from before a write that the reader saw committed. So every statement is sent after each read it answers arrived,
// and sees every write committed before that read was asked, exactly as a statement of its own would. Under no load a
// read goes out at once and alone (no added latency); while a group's statement is out, the reads that arrive wait for
// it to come back and then go out together, in one statement (up to `maxBatch` ids; the rest in the one after).

interface Waiter<V> {
  resolve: (value: V | undefined) => void;
  reject: (error: unknown) => void;
}

interface Group<V> {
  /** Statements of this group sent and not answered yet. */
  out: number;
  /** The reads waiting for the group's next statement, by id. */
  next: Map<string, Waiter<V>[]>;
  load: (ids: string[]) => Promise<Map<string, V>>;
}

export class Coalescer<V> {
  private readonly groups = new Map<string, Group<V>>();

  /**
   * @param maxInFlight statements a group may have out at once (1: the most sharing; each later read waits for at most
   *   one round trip of a statement sent before it).
   * @param maxBatch ids per statement.
   */
  constructor(
    private readonly maxInFlight = 1,
    private readonly maxBatch = 256,
  ) {}

  /**
   * The value for `id` in `group`, loaded by `load` together with the other ids of the group's next statement.
   * `group` must name everything the statement depends on besides the ids (partner, shape, time windows): reads of one
   * group are answered by one `load`, whichever read's `load` it is.
   */
  get(group: string, id: string, load: (ids: string[]) => Promise<Map<string, V>>): Promise<V | undefined> {
    let g = this.groups.get(group);
    if (!g) this.groups.set(group, (g = { out: 0, next: new Map(), load }));
    const waiters = g.next.get(id) ?? [];
    g.next.set(id, waiters);
    const answer = new Promise<V | undefined>((resolve, reject) => waiters.push({ resolve, reject }));
    if (g.out < this.maxInFlight) this.send(group, g);
    return answer;
  }

  /** Reads waiting or out, over all groups (tests). */
  get pending(): number {
    let n = 0;
    for (const g of this.groups.values()) n += g.out + g.next.size;
    return n;
  }

  private send(key: string, g: Group<V>): void {
    const batch = new Map<string, Waiter<V>[]>();
    for (const [id, waiters] of g.next) {
      if (batch.size === this.maxBatch) break;
      batch.set(id, waiters);
    }
    for (const id of batch.keys()) g.next.delete(id);
    g.out++;
    let loaded: Promise<Map<string, V>>;
    try {
      loaded = g.load([...batch.keys()]);
    } catch (error) {
      loaded = Promise.reject(error);
    }
    loaded.then(
      (values) => {
        for (const [id, waiters] of batch) for (const w of waiters) w.resolve(values.get(id));
      },
      (error: unknown) => {
        for (const waiters of batch.values()) for (const w of waiters) w.reject(error);
      },
    ).finally(() => {
      g.out--;
      if (g.next.size > 0) this.send(key, g);
      else if (g.out === 0 && this.groups.get(key) === g) this.groups.delete(key);
    });
  }
}
