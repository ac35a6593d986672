import type { JSONRPCMessage, MessageExtraInfo, Transport } from "@modelcontextprotocol/server";

export type SseSessionTransportOptions = {
  sessionId: string;
  /** Where the client posts its messages (the `endpoint` event's data). */
  endpoint: string;
  /** A comment frame this often keeps proxies from closing an idle stream. */
  keepAliveMs: number;
};

const encoder = new TextEncoder();

/**
 * The legacy HTTP+SSE transport (protocol 2024-11-05) over web streams: the server's messages go down
 * `stream` (after an `endpoint` event naming where to post), the client's arrive through `receive`
 * (the POST /messages handler). Closed when the client goes (the stream is cancelled) or the server
 * closes it; `onclose` then frees the session.
 */
export class SseSessionTransport implements Transport {
  readonly sessionId: string;
  readonly stream: ReadableStream<Uint8Array>;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;
  #controller!: ReadableStreamDefaultController<Uint8Array>;
  #keepAlive: ReturnType<typeof setInterval> | undefined;
  #closed = false;

  constructor({ sessionId, endpoint, keepAliveMs }: SseSessionTransportOptions) {
    this.sessionId = sessionId;
    this.stream = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
        controller.enqueue(encoder.encode(`event: endpoint\ndata: ${endpoint}\n\n`));
      },
      cancel: () => this.close(),
    });
    this.#keepAlive = setInterval(() => this.#write(": keep-alive\n\n"), keepAliveMs);
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) throw new Error("the SSE session is closed");
    this.#write(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  /** A message the client posted for this session. */
  receive(message: JSONRPCMessage, extra: MessageExtraInfo): void {
    this.onmessage?.(message, extra);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#keepAlive);
    try {
      this.#controller.close();
    } catch {
      // Already cancelled by the client.
    }
    this.onclose?.();
  }

  #write(frame: string) {
    if (this.#closed) return;
    try {
      this.#controller.enqueue(encoder.encode(frame));
    } catch (error) {
      this.onerror?.(error as Error);
      void this.close();
    }
  }
}
