// The lock countdown: m:ss display, whole seconds rounded up, spoken thresholds crossed once, expiry once, paused while disconnected.
import { expect } from '@open-wc/testing';
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { crossedThreshold, formatCountdown, secondsLeft } from '../../../src/components/quote/countdown';
import { CountdownController } from '../../../src/components/quote/countdown-controller';
import { FakeClock } from '../support/fake-clock';

class Host implements ReactiveControllerHost {
  controllers: ReactiveController[] = [];
  updates = 0;
  addController(c: ReactiveController) {
    this.controllers.push(c);
  }
  removeController() {}
  requestUpdate() {
    this.updates++;
  }
  get updateComplete() {
    return Promise.resolve(true);
  }
  connect() {
    for (const c of this.controllers) c.hostConnected?.();
  }
  disconnect() {
    for (const c of this.controllers) c.hostDisconnected?.();
  }
}

function setup(thresholds = [30, 10]) {
  const clock = new FakeClock();
  const host = new Host();
  const spoken: number[] = [];
  let expired = 0;
  const countdown = new CountdownController(host, { clock: () => clock, thresholds, onThreshold: (s) => spoken.push(s), onExpire: () => expired++ });
  host.connect();
  return { clock, host, countdown, spoken, expired: () => expired };
}

describe('countdown text', () => {
  it('reads m:ss, rounding partial seconds up so 0:00 only shows once expired', () => {
    expect([secondsLeft(30_000), secondsLeft(29_001), secondsLeft(1), secondsLeft(0), secondsLeft(-5)]).to.deep.equal([30, 30, 1, 0, 0]);
    expect([formatCountdown(300, 'en'), formatCountdown(61, 'en'), formatCountdown(7, 'pt-BR'), formatCountdown(0, 'en')]).to.deep.equal(['5:00', '1:01', '0:07', '0:00']);
  });

  it('a threshold is crossed when the seconds left go from above it to at or below it, the smallest one if several', () => {
    expect(crossedThreshold(31, 30, [30, 10])).to.equal(30);
    expect(crossedThreshold(30, 29, [30, 10])).to.equal(undefined);
    expect(crossedThreshold(40, 5, [30, 10])).to.equal(10);
    expect(crossedThreshold(1, 0, [30, 10])).to.equal(undefined);
  });
});

describe('CountdownController', () => {
  it('a 1-minute lock speaks at 30 s and 10 s, once each, and expires exactly at the deadline, once', () => {
    const { clock, countdown, spoken, expired } = setup();
    countdown.start(clock.now() + 60_000);
    expect(countdown.seconds).to.equal(60);
    clock.advance(29_999);
    expect(spoken).to.deep.equal([]);
    clock.advance(1);
    expect(countdown.seconds).to.equal(30);
    expect(spoken).to.deep.equal([30]);
    clock.advance(20_000);
    expect(spoken).to.deep.equal([30, 10]);
    clock.advance(9_999);
    expect([countdown.seconds, expired(), countdown.running]).to.deep.equal([1, 0, true]);
    clock.advance(1);
    expect([countdown.seconds, expired(), countdown.expired, countdown.running]).to.deep.equal([0, 1, true, false]);
    clock.advance(60_000);
    expect(expired()).to.equal(1);
    expect(spoken).to.deep.equal([30, 10]);
    expect(clock.pending, 'no timer left behind').to.equal(0);
  });

  it('a 30 s lock does not announce "30 seconds" on top of the lock itself, but does at 10 s', () => {
    const { clock, countdown, spoken } = setup();
    countdown.start(clock.now() + 30_000);
    clock.advance(30_000);
    expect(spoken).to.deep.equal([10]);
  });

  it('re-renders its host on every whole second, not more often', () => {
    const { clock, host, countdown } = setup();
    countdown.start(clock.now() + 5_500);
    const before = host.updates;
    clock.advance(500); // first boundary: 5 s left
    clock.advance(4_000);
    expect(host.updates - before).to.equal(5);
  });

  it('stop() ends the countdown without expiring it', () => {
    const { clock, countdown, expired } = setup();
    countdown.start(clock.now() + 10_000);
    countdown.stop();
    clock.advance(20_000);
    expect([expired(), countdown.running, countdown.remainingMs, clock.pending]).to.deep.equal([0, false, 0, 0]);
  });

  it('pauses while its host is disconnected and expires on reconnect if the deadline passed meanwhile', () => {
    const { clock, host, countdown, expired } = setup();
    countdown.start(clock.now() + 10_000);
    host.disconnect();
    expect(clock.pending).to.equal(0);
    clock.advance(15_000);
    expect(expired()).to.equal(0);
    host.connect();
    expect(expired()).to.equal(1);
  });
});
