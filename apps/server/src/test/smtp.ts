import { type ParsedMail, simpleParser } from 'mailparser';
import { createServer } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** The SMTP envelope: MAIL FROM and RCPT TO as the server was given them. */
  envelope: { from: string; to: string[] };
  parsed: ParsedMail;
}

export interface TestSmtpServer {
  /** `smtp://127.0.0.1:<port>` for VERS_SMTP_URL. */
  url: string;
  /** Every message the server accepted (answered 250 after DATA), in order. */
  received: ReceivedMail[];
  /** The recipients the server was asked for so far (RCPT TO), accepted or not. */
  asked: string[];
  /**
   * Holds RCPT TO of `address` unanswered until released: a sender is stopped mid-send there, before the message is
   * given. `reached` resolves once a sender asked for it. Once released it is accepted, or refused as an unknown
   * mailbox (550) when `then` is 'refuse'.
   */
  hold(address: string, then?: 'accept' | 'refuse'): { reached: Promise<void>; release(): void };
  /** Answers RCPT TO of `address` with 451 (a temporary failure: try again later) the next `times` times. */
  failTemporarily(address: string, times: number): void;
  close(): Promise<void>;
}

/**
 * A real SMTP server (the smtp-server package) on a free port of 127.0.0.1, with no authentication and no TLS. It
 * refuses a recipient whose local part begins with `bounce` as a mail server refuses an unknown mailbox (550).
 */
export async function startSmtpServer(port = 0): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const asked: string[] = [];
  const holds = new Map<string, { reach: () => void; released: Promise<void>; then: 'accept' | 'refuse' }>();
  const temporaryFailures = new Map<string, number>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      asked.push(address.address);
      const refuse = () => {
        const error = new Error(`5.1.1 <${address.address}>: Recipient address rejected: User unknown`);
        (error as Error & { responseCode: number }).responseCode = 550;
        callback(error);
      };
      const failures = temporaryFailures.get(address.address) ?? 0;
      if (failures > 0) {
        temporaryFailures.set(address.address, failures - 1);
        const error = new Error(`4.7.1 <${address.address}>: Greylisted, please try again later`);
        (error as Error & { responseCode: number }).responseCode = 451;
        return callback(error);
      }
      const answer = () => (address.address.startsWith('bounce') ? refuse() : callback());
      const hold = holds.get(address.address);
      if (!hold) return answer();
      holds.delete(address.address);
      hold.reach();
      void hold.released.then(hold.then === 'refuse' ? refuse : answer);
    },
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          received.push({
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            },
            parsed,
          });
          callback();
        })
        .catch(callback);
    },
  });
  const listening = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const address = server.server.address();
      if (typeof address === 'object' && address) resolve(address.port);
      else reject(new Error('no port'));
    });
  });
  return {
    url: `smtp://127.0.0.1:${listening}`,
    received,
    asked,
    hold(address, then = 'accept') {
      let reach = () => {};
      let release = () => {};
      const reached = new Promise<void>((resolve) => (reach = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      holds.set(address, { reach, released, then });
      return { reached, release };
    },
    failTemporarily(address, times) {
      temporaryFailures.set(address, times);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Linux's ephemeral range (net.ipv4.ip_local_port_range) starts here: the kernel hands out no port below it. */
const EPHEMERAL_FROM = 32768;

/**
 * A free port of 127.0.0.1 below the ephemeral range, for a server that is started later on a known port (an SMTP
 * server that is down, then back). A port the kernel chose (port 0) may be handed to another process's connection or
 * listener once closed; one below the range is taken only by a process that binds it by number.
 */
export async function portForLater(): Promise<number> {
  for (;;) {
    const port = 20_000 + Math.floor(Math.random() * (EPHEMERAL_FROM - 20_000));
    const free = await new Promise<boolean>((resolve) => {
      const probe = createServer();
      probe.once('error', () => resolve(false));
      probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
    });
    if (free) return port;
  }
}
