import type { JSONRPCMessage, MessageExtraInfo, Transport } from "@modelcontextprotocol/server";

/** How long a stream lives and how much it may hold: each is a bound one client could otherwise stretch. */
export type SseStreamBounds = {
  /** A comment frame this often keeps proxies from closing an idle stream. */
  keepAliveMs: number;
  /** The session is closed when its client posts no message for this long. */
  idleMs: number;
  /** The session is closed when more than this many bytes of frames wait unread (the client stopped reading). */
  maxQueuedBytes: number;
};

export type SseSessionTransportParameters = SseStreamBounds & {
  sessionId: string;
  /** Where the client posts its messages (the `endpoint` event's data). */
  endpoint: string;
};

const encoder = new TextEncoder();

/**
 * The legacy HTTP+SSE transport (protocol 2024-11-05) over web streams: the server's messages go down
 * `stream` (after an `endpoint` event naming where to post), the client's arrive through `receive`
 * (the POST /messages handler). Closed when the client goes (the stream is cancelled), the server
 * closes it, the client posts nothing for `idleMs`, or leaves more than `maxQueuedBytes` unread (the
 * stream's queue is measured in bytes: what the socket cannot take waits there); `onclose` then frees
 * the session.
 */
export class SseSessionTransport implements Transport {
  readonly sessionId: string;
  readonly stream: ReadableStream<Uint8Array>;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #keepAlive: ReturnType<typeof setInterval>;
  #idle: ReturnType<typeof setTimeout>;
  #maxQueuedBytes: number;
  #closed = false;

  constructor({ sessionId, endpoint, keepAliveMs, idleMs, maxQueuedBytes }: SseSessionTransportParameters) {
    this.sessionId = sessionId;
    this.#maxQueuedBytes = maxQueuedBytes;
    this.stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
          controller.enqueue(encoder.encode(`event: endpoint\ndata: ${endpoint}\n\n`));
        },
        cancel: () => this.close(),
      },
      new ByteLengthQueuingStrategy({ highWaterMark: maxQueuedBytes }),
    );
    this.#keepAlive = setInterval(() => this.#write(": keep-alive\n\n"), keepAliveMs);
    this.#idle = setTimeout(() => void this.close(), idleMs);
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) throw new Error("the SSE session is closed");
    this.#write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  /** A message the client posted for this session: it is active again. */
  receive(message: JSONRPCMessage, extra: MessageExtraInfo): void {
    if (this.#closed) return;
    this.#idle.refresh();
    this.onmessage?.(message, extra);
  }

  /**
   * Ends the stream: after its last frame when the client has read everything, at once otherwise (the
   * unread frames are dropped, and the connection with them).
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#keepAlive);
    clearTimeout(this.#idle);
    try {
      if (this.#queuedBytes() > 0) this.#controller.error(new Error("the SSE session was closed with frames unread"));
      else this.#controller.close();
    } catch {
      // Already cancelled by the client.
    }
    this.onclose?.();
  }

  /** Bytes enqueued that the socket has not taken yet (the bound less the stream's desired size). */
  #queuedBytes(): number {
    return this.#maxQueuedBytes - (this.#controller.desiredSize ?? this.#maxQueuedBytes);
  }

  #write(frame: string) {
    if (this.#closed) return;
    try {
      this.#controller.enqueue(encoder.encode(frame));
    } catch (error) {
      this.onerror?.(error as Error);
      void this.close();
      return;
    }
    if (this.#queuedBytes() > this.#maxQueuedBytes) void this.close();
  }
}
