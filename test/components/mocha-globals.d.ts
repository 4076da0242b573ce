// Types for the mocha globals @web/test-runner puts in the test page (describe, it, hooks), without installing @types/mocha.
interface MochaContext {
  timeout(ms: number): void;
  skip(): never;
}
type MochaDone = (error?: unknown) => void;
type MochaTest = (this: MochaContext, done: MochaDone) => void | PromiseLike<unknown>;
type MochaHook = (this: MochaContext, done: MochaDone) => void | PromiseLike<unknown>;

declare function describe(title: string, suite: (this: MochaContext) => void): void;
declare namespace describe {
  function only(title: string, suite: (this: MochaContext) => void): void;
  function skip(title: string, suite: (this: MochaContext) => void): void;
}
declare function it(title: string, test?: MochaTest): void;
declare namespace it {
  function only(title: string, test?: MochaTest): void;
  function skip(title: string, test?: MochaTest): void;
}
declare function before(hook: MochaHook): void;
declare function after(hook: MochaHook): void;
declare function beforeEach(hook: MochaHook): void;
declare function afterEach(hook: MochaHook): void;
