/**
 * For tests in the node environment only: a fault-injecting HTTP proxy between the browser code and the real server,
 * and the fast-check arbitrary of its faults.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';

export type Fault =
  | { kind: 'pass' }
  /** The request never reaches the server: the client's connection breaks. */
  | { kind: 'drop' }
  /**
   * The server applies the request, then the client's connection breaks: applied, but the client never hears (also
   * after holding it, the way a timed-out call ends).
   */
  | { kind: 'lose'; holdMs: number }
  /** The request reaches the server twice; the client gets the second answer. */
  | { kind: 'duplicate' }
  | { kind: 'delay'; ms: number };

export const PASS: Fault = { kind: 'pass' };

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Answer {
  status: number;
  contentType: string | null;
  body: Buffer;
}

export class FaultProxy {
  /** Faults for the coming requests, taken one per request in arrival order; when used up, requests pass. */
  faults: Fault[] = [];
  /** How often each fault struck, over the proxy's life. */
  readonly struck: Record<Fault['kind'], number> = { pass: 0, drop: 0, lose: 0, duplicate: 0, delay: 0 };
  /** Writes the server applied (200) whose answer the client never got. */
  lostWrites = 0;
  private readonly http: Server;

  constructor(private readonly target: string) {
    this.http = createServer((req, res) => {
      void this.handle(req).then(
        (answer) => {
          if (!answer) return;
          res.writeHead(answer.status, answer.contentType ? { 'content-type': answer.contentType } : {});
          res.end(answer.body);
        },
        () => req.socket.destroy(),
      );
    });
  }

  /** Listens on a free port of 127.0.0.1; resolves to the proxy's URL. */
  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.http.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.http.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    this.http.closeAllConnections();
    await new Promise((resolve) => this.http.close(resolve));
  }

  /** The answer to give, or null when the client's connection was broken instead. */
  private async handle(req: IncomingMessage): Promise<Answer | null> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const fault = this.faults.shift() ?? PASS;
    this.struck[fault.kind] += 1;
    switch (fault.kind) {
      case 'drop':
        req.socket.destroy();
        return null;
      case 'lose': {
        await sleep(fault.holdMs);
        const answer = await this.forward(req, body);
        if (req.method !== 'GET' && answer.status === 200) this.lostWrites += 1;
        req.socket.destroy();
        return null;
      }
      case 'duplicate':
        await this.forward(req, body);
        return this.forward(req, body);
      case 'delay':
        await sleep(fault.ms);
        return this.forward(req, body);
      default:
        return this.forward(req, body);
    }
  }

  private async forward(req: IncomingMessage, body: string): Promise<Answer> {
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'content-type', 'accept']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const res = await fetch(`${this.target}${req.url}`, {
      method: req.method,
      headers,
      ...(body.length > 0 ? { body } : {}),
    });
    return {
      status: res.status,
      contentType: res.headers.get('content-type'),
      body: Buffer.from(await res.arrayBuffer()),
    };
  }
}

/** Faults of every kind, each as often as its weight says; lost answers after 0 or 50 to 300 ms, delays of 50 to 300. */
export function faultArb(weights: Record<Fault['kind'], number>): fc.Arbitrary<Fault> {
  return fc.oneof(
    { weight: weights.pass, arbitrary: fc.constant(PASS) },
    { weight: weights.drop, arbitrary: fc.constant<Fault>({ kind: 'drop' }) },
    {
      weight: weights.lose,
      arbitrary: fc.record({
        kind: fc.constant('lose' as const),
        holdMs: fc.oneof(fc.constant(0), fc.integer({ min: 50, max: 300 })),
      }),
    },
    { weight: weights.duplicate, arbitrary: fc.constant<Fault>({ kind: 'duplicate' }) },
    {
      weight: weights.delay,
      arbitrary: fc.record({ kind: fc.constant('delay' as const), ms: fc.integer({ min: 50, max: 300 }) }),
    },
  );
}

/**
 * The property tests' seed: fixed by default, so the test command gives the same cases every time (and the
 * "faults struck" checks cannot flicker); `VERS_PROPERTY_SEED=random` explores new cases, any number repeats one.
 */
export const PROPERTY_SEED: { seed?: number } =
  process.env.VERS_PROPERTY_SEED === 'random' ? {} : { seed: Number(process.env.VERS_PROPERTY_SEED ?? 20_261_122) };
