// Cameras for tests: one that films a canvas (a real MediaStream, so a <video> plays and a frame can be captured), one that refuses.

export interface FakeCamera {
  stream: MediaStream;
  calls: MediaStreamConstraints[];
  restore: () => void;
}

export function fakeCamera(): FakeCamera {
  const canvas = document.createElement('canvas');
  canvas.width = 320;
  canvas.height = 240;
  const context = canvas.getContext('2d')!;
  context.fillStyle = '#c96';
  context.fillRect(0, 0, 320, 240);
  const stream = canvas.captureStream(10);
  const calls: MediaStreamConstraints[] = [];
  const original = navigator.mediaDevices.getUserMedia;
  navigator.mediaDevices.getUserMedia = async (constraints?: MediaStreamConstraints) => {
    calls.push(constraints ?? {});
    return stream;
  };
  return { stream, calls, restore: () => (navigator.mediaDevices.getUserMedia = original) };
}

/** getUserMedia fails with this DOMException name (`NotAllowedError`, `NotFoundError`…) until the returned function runs. */
export function refusedCamera(name: string): () => void {
  const original = navigator.mediaDevices.getUserMedia;
  navigator.mediaDevices.getUserMedia = async () => {
    throw new DOMException('refused', name);
  };
  return () => (navigator.mediaDevices.getUserMedia = original);
}
