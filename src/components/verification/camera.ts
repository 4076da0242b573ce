// The selfie camera as a Lit controller: front camera into a <video>, one frame to a JPEG, and every track stopped when done or disconnected.
import type { ReactiveController, ReactiveControllerHost } from 'lit';

export type CameraFailure = 'denied' | 'unavailable';

/** Permission refused (now or by policy) versus no usable camera: the user is told different things. */
export function cameraFailure(error: unknown): CameraFailure {
  const name = error instanceof DOMException || error instanceof Error ? error.name : '';
  return name === 'NotAllowedError' || name === 'SecurityError' || name === 'PermissionDeniedError' ? 'denied' : 'unavailable';
}

export class CameraController implements ReactiveController {
  #stream: MediaStream | undefined;

  constructor(host: ReactiveControllerHost) {
    host.addController(this);
  }

  /** Whether this browser can be asked for a camera at all (no API on plain-http pages or old browsers). */
  get supported(): boolean {
    return typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getUserMedia === 'function';
  }

  get active(): boolean {
    return this.#stream?.getVideoTracks().some((t) => t.readyState === 'live') ?? false;
  }

  /** The live stream, to attach to a `<video>`; undefined when stopped. */
  get stream(): MediaStream | undefined {
    return this.#stream;
  }

  /** Asks for the front camera; rejects as `getUserMedia` does (see `cameraFailure`). */
  async start(): Promise<MediaStream> {
    this.stop();
    const stream = await navigator.mediaDevices.getUserMedia({
      video: { facingMode: 'user', width: { ideal: 1280 }, height: { ideal: 720 } },
      audio: false,
    });
    this.#stream = stream;
    return stream;
  }

  /** One frame of the video as a JPEG (quality 0.9), at the video's own size. */
  async capture(video: HTMLVideoElement): Promise<Blob> {
    if (video.readyState < HTMLMediaElement.HAVE_CURRENT_DATA) {
      await new Promise<void>((resolve) => video.addEventListener('loadeddata', () => resolve(), { once: true }));
    }
    const canvas = document.createElement('canvas');
    canvas.width = video.videoWidth || 640;
    canvas.height = video.videoHeight || 480;
    const context = canvas.getContext('2d');
    if (!context) throw new Error('No 2D canvas context');
    context.drawImage(video, 0, 0, canvas.width, canvas.height);
    return new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('The frame could not be encoded'))), 'image/jpeg', 0.9),
    );
  }

  /** Stops every track, so the camera light goes off. */
  stop(): void {
    for (const track of this.#stream?.getTracks() ?? []) track.stop();
    this.#stream = undefined;
  }

  hostDisconnected(): void {
    this.stop();
  }
}
