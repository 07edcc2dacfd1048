import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type NotificationMail, formatDate, localDate } from '@vers/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationMails, orders } from '../db/schema.ts';
import { pdfText, wagonReleaseEntries } from '../test/documents.ts';
import { OUT, WAGON_NUMBER, createWagonOrder, push, signOff } from '../test/orders.ts';
import {
  DEMO_PASSWORD,
  type TestServer,
  createTestDatabase,
  requestAt,
  startServerProcess,
  startTestServer,
} from '../test/server.ts';
import { readConfig } from '../config.ts';
import { DEFAULT_JOB_TIMING, MAIL_RETRY_LIMIT, type JobTiming } from '../jobs/queue.ts';
import { deliverMail } from './deliver.ts';
import { DIGEST_CRON, weeklyDigest } from './digest.ts';
import { mailOutbox, recordOrderMails } from './outbox.ts';
import { createMailTransport, smtpTimeoutMs } from './transport.ts';
import { type ReceivedMail, type TestSmtpServer, portForLater, startSmtpServer } from '../test/smtp.ts';

const FROM = 'vers@werkstatt.example';
const FRENCH = 'atelier-nord@example.fr';
const SOUTH_ADDRESS = 'leitung-sued@example.org';

let smtp: TestSmtpServer;
let server: TestServer;
let werkadmin: string;
let werkadmin2: string;
let staff: string;
let wagonqa: string;
let staff2: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({
    mail: { smtpUrl: smtp.url, outboxDir: mkdtempSync(path.join(tmpdir(), 'vers-outbox-')), from: FROM },
  });
  [werkadmin, werkadmin2, staff, wagonqa, staff2] = await server.signInAll([
    'werkadmin',
    'werkadmin2',
    'staff',
    'wagonqa',
    'staff2',
  ]);
  const added = await server.request('POST', '/api/v1/emailAddress', {
    token: werkadmin,
    body: { address: FRENCH, languageCode: 'fr' },
  });
  expect(added.status).toBe(201);
});
afterAll(async () => {
  await server?.close();
  await smtp?.close();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const listMails = async (token = werkadmin) =>
  (await server.request<NotificationMail[]>('GET', '/api/v1/notificationMails', { token })).body;

/** The workshop's mails of one order, once none of them is waiting any more. */
async function settledMails(orderNumber: string, count: number): Promise<NotificationMail[]> {
  for (let i = 0; i < 1200; i++) {
    const mine = (await listMails()).filter((mail) => mail.orderNumber === orderNumber);
    if (mine.length === count && mine.every((mail) => mail.status !== 'WAITING')) return mine;
    await sleep(100);
  }
  throw new Error(`the mails of ${orderNumber} were not delivered in time`);
}

const receivedFor = (orderNumber: string) => smtp.received.filter((mail) => mail.parsed.subject?.includes(orderNumber));
const to = (mail: ReceivedMail) => mail.envelope.to.join(',');
const status = (orderId: string, target: string, id?: string) =>
  server.request('POST', `/api/v1/orders/${orderId}/status`, {
    token: werkadmin,
    body: { status: target, ...(id ? { id } : {}) },
  });

describe('notification mails', () => {
  it('mails IN_QA to each address of the own workshop in its language, from the sender, once per status change', async () => {
    const order = await createWagonOrder(server, staff);
    const change = randomUUID();
    expect((await status(order.id, 'IN_QA', change)).status).toBe(200);
    expect((await status(order.id, 'IN_QA', change)).status).toBe(200); // resent: the same event
    const mails = await settledMails(order.number, 3);
    expect(mails.map((mail) => mail.status)).toEqual(['SENT', 'SENT', 'SENT']);

    const received = receivedFor(order.number);
    expect(received.map(to).sort()).toEqual([FRENCH, 'leitung-nord@example.org', 'quality-north@example.org']);
    for (const mail of received) {
      expect(mail.envelope.from).toBe(FROM);
      expect(mail.parsed.from?.value).toEqual([{ address: FROM, name: 'VERS Demo-Werkstatt Nord (VERS)' }]);
      expect(mail.parsed.to && 'text' in mail.parsed.to ? mail.parsed.to.text : '').toBe(to(mail));
      expect(mail.parsed.text).toContain(order.number);
    }
    const byAddress = (address: string) => received.find((mail) => to(mail) === address)!;
    const german = byAddress('leitung-nord@example.org');
    expect(german.parsed.subject).toBe(
      `VERS Demo-Werkstatt Nord: Auftrag ${order.number}, Wagen ${WAGON_NUMBER} – In Qualitätsprüfung`,
    );
    expect(german.parsed.text).toContain('wartet auf die Qualitätsprüfung');
    expect(german.parsed.headers.get('content-language')).toBe('de');
    const french = byAddress(FRENCH);
    expect(french.parsed.subject).toContain(`VERS Demo-Werkstatt Nord : ordre ${order.number}`);
    expect(french.parsed.text).toContain('attend le contrôle qualité');
    expect(byAddress('quality-north@example.org').parsed.text).toContain('awaits the quality check');
    // Each mail carries the Message-ID recorded for it, which a resend after a crash carries again.
    const rows = await server.database.db
      .select()
      .from(notificationMails)
      .where(eq(notificationMails.orderId, order.id));
    expect(received.map((mail) => mail.parsed.messageId).sort()).toEqual(rows.map((row) => row.messageId).sort());

    // Nothing went to the other workshop's address, and its admin sees none of these mails.
    expect(smtp.asked).not.toContain(SOUTH_ADDRESS);
    expect((await listMails(werkadmin2)).some((mail) => mail.orderNumber === order.number)).toBe(false);
  });

  it('attaches the release to service PDF of the sign-off in each address language', async () => {
    const order = await createWagonOrder(server, staff);
    for (const activity of wagonReleaseEntries(order.id)) {
      expect((await server.request('POST', '/api/v1/activity', { token: staff, body: activity })).status).toBe(200);
    }
    const signed = await signOff(server, wagonqa, order.id, { meaning: 'RELEASED_TO_SERVICE', status: 'DONE' });
    expect(signed.status).toBe(200);
    await settledMails(order.number, 3);
    const received = receivedFor(order.number);
    expect(received).toHaveLength(3);
    const french = received.find((mail) => to(mail) === FRENCH)!;
    expect(french.parsed.subject).toContain('remis en service');
    expect(french.parsed.text).toContain('La remise en service est jointe au format PDF.');
    const [pdf] = french.parsed.attachments;
    expect(pdf?.contentType).toBe('application/pdf');
    expect(pdf?.filename).toMatch(/_release_to_service_fr\.pdf$/);
    const text = pdfText(pdf!.content);
    expect(text).toContain('Remise en service');
    expect(text).toContain(signed.body.code.slice(0, 4));
    const german = received.find((mail) => to(mail) === 'leitung-nord@example.org')!;
    expect(german.parsed.attachments[0]?.filename).toMatch(/_release_to_service_de\.pdf$/);
    expect(pdfText(german.parsed.attachments[0]!.content)).toContain('Freigabe zum Betrieb');
  });

  it('records an address the SMTP server refuses as failed with its answer, and the server carries on', async () => {
    const bounce = `bounce-${randomUUID().slice(0, 8)}@example.org`;
    const added = await server.request<{ id: number }>('POST', '/api/v1/emailAddress', {
      token: werkadmin,
      body: { address: bounce, languageCode: 'en' },
    });
    expect(added.status).toBe(201);
    try {
      const order = await createWagonOrder(server, staff);
      expect((await status(order.id, 'IN_QA')).status).toBe(200);
      const mails = await settledMails(order.number, 4);
      const failed = mails.find((mail) => mail.address === bounce)!;
      expect(failed.status).toBe('FAILED');
      expect(failed.reason).toMatch(/550.*Recipient address rejected/);
      expect(failed.attempts).toBe(1);
      expect(mails.filter((mail) => mail.status === 'SENT')).toHaveLength(3);
      expect((await server.request('GET', '/api/v1/version/current')).status).toBe(200);
    } finally {
      await server.request('DELETE', `/api/v1/emailAddress/${added.body.id}`, { token: werkadmin });
    }
  });

  it("answers another workshop's mails as not found", async () => {
    const north = await listMails();
    expect(north.length).toBeGreaterThan(0);
    const other = await server.request('GET', '/api/v1/notificationMails?workshopId=1', { token: werkadmin2 });
    const own = await server.request('GET', '/api/v1/notificationMails?workshopId=2', { token: werkadmin2 });
    // werkadmin2's own workshop answers; asking for another one is 404, whichever id the north workshop has.
    expect([other.status, own.status].sort()).toEqual([200, 404]);
    const eml = await server.request('GET', `/api/v1/notificationMails/${north[0]!.id}/eml`, { token: werkadmin2 });
    expect(eml.status).toBe(404);
  });
});

describe('weekly digest', () => {
  const DEADLINE = `${OUT}.Revision.DatumLetzteFrist`;
  const daysFrom = (date: string, days: number) =>
    new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
  const setDeadline = async (token: string, orderId: string, due: string) =>
    expect(
      (await server.request('POST', '/api/v1/activity', { token, body: push(orderId, DEADLINE, due) })).status,
    ).toBe(200);

  it('is scheduled weekly, lists the own workshop deadlines overdue and due within 30 days, once per week', async () => {
    const schedules = await server.database.executeSql('SELECT name, cron FROM pgboss.schedule', []);
    expect(schedules.rows).toContainEqual({ name: 'mail-digest', cron: DIGEST_CRON });

    const today = localDate();
    const soon = await createWagonOrder(server, staff);
    const overdue = await createWagonOrder(server, staff);
    const later = await createWagonOrder(server, staff); // due after 30 days: not listed
    const south = await createWagonOrder(server, staff2);
    await setDeadline(staff, soon.id, daysFrom(today, 10));
    await setDeadline(staff, overdue.id, daysFrom(today, -5));
    await setDeadline(staff, later.id, daysFrom(today, 45));
    await setDeadline(staff2, south.id, daysFrom(today, 3));

    // The job as pg-boss runs it, its delivery jobs run at once against the test's SMTP server.
    const { db } = server.database;
    const transport = createMailTransport({ smtpUrl: smtp.url, outboxDir: tmpdir(), from: FROM });
    const outbox = mailOutbox(db, {
      send: (_queue, data) => deliverMail(db, transport, data.assetId, 60),
      stop: async () => {},
    });
    const digests = () =>
      smtp.received.filter(
        (mail) =>
          mail.parsed.headers.get('content-language') &&
          /Fristen|deadlines|échéances|срокове/.test(mail.parsed.subject ?? ''),
      );
    try {
      await weeklyDigest(db, outbox, today);
      await weeklyDigest(db, outbox, today); // the same week again: nothing more
    } finally {
      transport.close();
    }
    const received = digests();
    expect(received.map(to).sort()).toEqual([
      FRENCH,
      'leitung-nord@example.org',
      SOUTH_ADDRESS,
      'quality-north@example.org',
    ]);

    const german = received.find((mail) => to(mail) === 'leitung-nord@example.org')!;
    expect(german.parsed.subject).toBe(
      'VERS Demo-Werkstatt Nord: Fristen – 1 überfällig, 1 in den nächsten 30 Tagen fällig',
    );
    const text = german.parsed.text ?? '';
    expect(text).toContain(`Überfällig:\n- ${overdue.number}`);
    expect(text).toContain(`${formatDate(daysFrom(today, -5), 'de')} (Tage überfällig: 5)`);
    expect(text).toContain(`Fällig in den nächsten 30 Tagen:\n- ${soon.number}`);
    expect(text).toContain('(Tage bis zur Fälligkeit: 10)');
    // Order numbers count per workshop: the lines' numbers, in the rule's order, are the two deadlines' only.
    const orderLines = (body: string | undefined) =>
      (body ?? '')
        .split('\n')
        .filter((line) => line.startsWith('- '))
        .map((line) => line.slice(2).split(' · ')[0]);
    expect(orderLines(text)).toEqual([overdue.number, soon.number]);
    const french = received.find((mail) => to(mail) === FRENCH)!;
    expect(french.parsed.subject).toContain('1 dépassées, 1 dans les 30 prochains jours');
    expect(french.parsed.text).toContain('Dépassées :');
    // The other workshop's digest names its own order only.
    const other = received.find((mail) => to(mail) === SOUTH_ADDRESS)!;
    expect(other.parsed.subject).toContain('VERS Demo-Werkstatt Süd');
    expect(orderLines(other.parsed.text)).toEqual([south.number]);
    expect((await listMails()).filter((mail) => mail.kind === 'DIGEST').map((mail) => mail.status)).toEqual([
      'SENT',
      'SENT',
      'SENT',
    ]);
  });
});

describe('without an SMTP server', () => {
  it('writes each mail as an .eml file into the outbox, which the workshop admin downloads', async () => {
    const outboxDir = mkdtempSync(path.join(tmpdir(), 'vers-outbox-'));
    const local = await startTestServer({ mail: { outboxDir, from: FROM } });
    try {
      const [admin, worker] = await local.signInAll(['werkadmin', 'staff']);
      const order = await createWagonOrder(local, worker);
      expect(
        (await local.request('POST', `/api/v1/orders/${order.id}/status`, { token: admin, body: { status: 'IN_QA' } }))
          .status,
      ).toBe(200);
      let mails: NotificationMail[] = [];
      for (let i = 0; i < 600 && !(mails.length === 2 && mails.every((m) => m.status === 'SENT')); i++) {
        await sleep(100);
        mails = (await local.request<NotificationMail[]>('GET', '/api/v1/notificationMails', { token: admin })).body;
      }
      expect(mails.map((mail) => [mail.status, mail.hasFile])).toEqual([
        ['SENT', true],
        ['SENT', true],
      ]);
      expect(readdirSync(outboxDir).sort()).toEqual(mails.map((mail) => `${mail.id}.eml`).sort());
      const response = await fetch(`${local.url}/api/v1/notificationMails/${mails[0]!.id}/eml`, {
        headers: { authorization: `Bearer ${admin}` },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toContain('message/rfc822');
      const eml = await response.text();
      expect(eml).toContain(`From: "VERS Demo-Werkstatt Nord (VERS)" <${FROM}>`);
      expect(eml).toContain(order.number);
    } finally {
      await local.close();
    }
  });
});

describe('an SMTP server that fails for a while', () => {
  // The production expiry, and so the production SMTP step timeout (30 s): a busy machine never times a step out.
  const WAIT: JobTiming = { expireSeconds: DEFAULT_JOB_TIMING.expireSeconds, mailRetrySeconds: 1 };

  /** A server of its own whose first workshop has the given address too, and whose mails are retried after a second. */
  async function serverWithAddress(smtpUrl: string, address: string) {
    const own = await startTestServer({
      mail: { smtpUrl, outboxDir: mkdtempSync(path.join(tmpdir(), 'vers-outbox-')), from: FROM },
      jobTiming: WAIT,
    });
    const [admin, worker1] = await own.signInAll(['werkadmin', 'staff']);
    expect(
      (await own.request('POST', '/api/v1/emailAddress', { token: admin, body: { address, languageCode: 'en' } }))
        .status,
    ).toBe(201);
    const order = await createWagonOrder(own, worker1);
    const mailsOf = async () =>
      (await own.request<NotificationMail[]>('GET', '/api/v1/notificationMails', { token: admin })).body.filter(
        (mail) => mail.orderNumber === order.number && mail.address === address,
      );
    const toQa = async () =>
      expect(
        (
          await own.request('POST', `/api/v1/orders/${order.id}/status`, {
            token: admin,
            body: { status: 'IN_QA' },
          })
        ).status,
      ).toBe(200);
    return { own, order, mailsOf, toQa };
  }

  async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
    for (let i = 0; i < 1800; i++) {
      const value = await read();
      if (done(value)) return value;
      await sleep(100);
    }
    throw new Error(`${what} did not happen in time`);
  }

  it('takes its waits from the environment, the defaults when unset, and refuses what is not a positive number', () => {
    expect(readConfig({}).jobTiming).toEqual(DEFAULT_JOB_TIMING);
    expect(readConfig({ VERS_JOB_EXPIRE_SECONDS: '8', VERS_MAIL_RETRY_SECONDS: '1' }).jobTiming).toEqual({
      expireSeconds: 8,
      mailRetrySeconds: 1,
    });
    for (const wrong of ['0', '-5', '1.5', 'soon']) {
      expect(() => readConfig({ VERS_JOB_EXPIRE_SECONDS: wrong })).toThrow(/VERS_JOB_EXPIRE_SECONDS/);
      expect(() => readConfig({ VERS_MAIL_RETRY_SECONDS: wrong })).toThrow(/VERS_MAIL_RETRY_SECONDS/);
    }
    // An attempt ends before its job could be handed out again.
    expect(smtpTimeoutMs(DEFAULT_JOB_TIMING)).toBe(30_000);
    expect(smtpTimeoutMs({ expireSeconds: 20 })).toBe(2_000);
  });

  it('tries again with back-off after temporary refusals, shows the reason meanwhile, and sends once', async () => {
    const greylisting = await startSmtpServer();
    const address = 'greylisted@example.org';
    greylisting.failTemporarily(address, 2);
    const third = greylisting.hold(address); // the third attempt waits here, so the failures can be looked at
    const { own, order, mailsOf, toQa } = await serverWithAddress(greylisting.url, address);
    try {
      await toQa();
      await third.reached;
      const [waiting] = await mailsOf();
      expect(waiting).toMatchObject({ status: 'WAITING', attempts: 3 });
      expect(waiting!.reason).toContain('451');
      expect(waiting!.reason).toContain('try again later');
      // The retries are pg-boss's, with this start's wait and a growing one (back-off), the same job throughout.
      const job = await own.database.executeSql(
        "SELECT retry_count, retry_delay, retry_backoff, retry_limit FROM pgboss.job WHERE name = 'mail-delivery' AND id = $1",
        [waiting!.id],
      );
      expect(job.rows).toEqual([
        { retry_count: 2, retry_delay: 1, retry_backoff: true, retry_limit: MAIL_RETRY_LIMIT },
      ]);
      third.release();
      const [sent] = await until(mailsOf, (mails) => mails[0]?.status === 'SENT', 'the delivery');
      expect(sent).toMatchObject({ status: 'SENT', attempts: 3, reason: null });
      expect(greylisting.asked.filter((asked) => asked === address)).toHaveLength(3);
      const received = greylisting.received.filter((mail) => mail.parsed.subject?.includes(order.number));
      expect(received.map(to).filter((recipient) => recipient === address)).toHaveLength(1);
    } finally {
      third.release();
      await own.close();
      await greylisting.close();
    }
  });

  it('keeps the mail while the SMTP server is down and sends it once it is back', async () => {
    // A port that answers nothing: the SMTP server is down when the order reaches IN_QA.
    const port = await portForLater();
    const address = 'patient@example.org';
    const { own, order, mailsOf, toQa } = await serverWithAddress(`smtp://127.0.0.1:${port}`, address);
    let back: TestSmtpServer | undefined;
    try {
      await toQa();
      const [refused] = await until(
        mailsOf,
        (mails) => (mails[0]?.reason ?? '').includes('ECONNREFUSED'),
        'a refused connection',
      );
      expect(refused).toMatchObject({ status: 'WAITING' });
      back = await startSmtpServer(port);
      const [sent] = await until(mailsOf, (mails) => mails[0]?.status === 'SENT', 'the delivery');
      expect(sent!.attempts).toBeGreaterThanOrEqual(2);
      const received = back.received.filter((mail) => mail.parsed.subject?.includes(order.number));
      expect(received.map(to).filter((recipient) => recipient === address)).toHaveLength(1);
    } finally {
      await own.close();
      await back?.close();
    }
  });
});

describe('two runs of one delivery at once', () => {
  it('send the mail once: the first to take it holds it, the other is tried again later', async () => {
    const { db } = server.database;
    const order = await createWagonOrder(server, staff);
    const [orderRow] = await db.select().from(orders).where(eq(orders.id, order.id));
    await db.transaction((tx) => recordOrderMails(tx, orderRow!, 'IN_QA', `in-qa:race-${randomUUID()}`));
    const rows = await db.select().from(notificationMails).where(eq(notificationMails.orderId, order.id));
    expect(rows.length).toBeGreaterThan(0);
    const transport = createMailTransport({ smtpUrl: smtp.url, outboxDir: tmpdir(), from: FROM });
    try {
      for (const row of rows) {
        const runs = await Promise.allSettled([
          deliverMail(db, transport, row.id, 60),
          deliverMail(db, transport, row.id, 60),
        ]);
        // One run sent it; the other found it held (and would be tried again by pg-boss), or found it sent.
        expect(runs.filter((run) => run.status === 'fulfilled').length).toBeGreaterThanOrEqual(1);
        for (const run of runs)
          if (run.status === 'rejected') expect(String(run.reason)).toContain('being sent by another attempt');
        // The retry of the held run: the mail is sent, so nothing more happens.
        await deliverMail(db, transport, row.id, 60);
      }
    } finally {
      transport.close();
    }
    const after = await db.select().from(notificationMails).where(eq(notificationMails.orderId, order.id));
    expect(after.map((row) => [row.status, row.attempts, row.heldUntil])).toEqual(rows.map(() => ['SENT', 1, null]));
    const received = receivedFor(order.number);
    expect(received.map(to).sort()).toEqual(rows.map((row) => row.address).sort());
  });
});

describe('an attempt that outlived its hold', () => {
  it('never overwrites the outcome of the newer attempt that took the mail after the hold ran out', async () => {
    const { db } = server.database;
    const order = await createWagonOrder(server, staff);
    const [orderRow] = await db.select().from(orders).where(eq(orders.id, order.id));
    await db.transaction((tx) => recordOrderMails(tx, orderRow!, 'IN_QA', `in-qa:late-${randomUUID()}`));
    const [row] = await db.select().from(notificationMails).where(eq(notificationMails.orderId, order.id));
    // The first attempt is kept at RCPT TO past its hold of one second, and then refused (550).
    const held = smtp.hold(row!.address, 'refuse');
    const transport = createMailTransport({ smtpUrl: smtp.url, outboxDir: tmpdir(), from: FROM });
    try {
      const late = deliverMail(db, transport, row!.id, 1);
      await held.reached;
      for (let i = 0; i < 600; i++) {
        const { rows } = await server.database.executeSql(
          'SELECT held_until < now() AS over FROM notification_mails WHERE id = $1',
          [row!.id],
        );
        if ((rows[0] as { over: boolean } | undefined)?.over) break;
        await sleep(100);
      }
      // The hold has run out: the job's next run takes the mail and sends it.
      await deliverMail(db, transport, row!.id, 60);
      held.release();
      await late;
    } finally {
      held.release();
      transport.close();
    }
    const [after] = await db.select().from(notificationMails).where(eq(notificationMails.id, row!.id));
    // The late refusal of the first attempt is not recorded over the second's delivery.
    expect(after).toMatchObject({ status: 'SENT', attempts: 2, reason: null, heldUntil: null });
    expect(receivedFor(order.number).map(to)).toContain(row!.address);
  });
});

describe('a worker killed mid-send', () => {
  it('is handed its job again by pg-boss after the expiry, on the next start, and sends the mail once', async () => {
    const killedSmtp = await startSmtpServer();
    const created = await createTestDatabase();
    const dataDir = mkdtempSync(path.join(tmpdir(), 'vers-mail-kill-'));
    const held = killedSmtp.hold('leitung-nord@example.org');
    // The server as `npm start` runs it, with the worker that takes the mail jobs, in a process of its own; a job
    // is given up after 20 s instead of 300 s, and a mail retried after 1 s, so that the test waits seconds.
    const env = {
      VERS_DATA_DIR: dataDir,
      VERS_DEMO_PASSWORD: DEMO_PASSWORD,
      VERS_DEMO_ORDERS: 'false',
      VERS_SMTP_URL: killedSmtp.url,
      VERS_MAIL_FROM: FROM,
      VERS_JOB_EXPIRE_SECONDS: '20',
      VERS_MAIL_RETRY_SECONDS: '1',
      ...(created ? { DATABASE_URL: created.url } : {}),
    };
    const first = await startServerProcess(env);
    let second: Awaited<ReturnType<typeof startServerProcess>> | undefined;
    const signIn = async (url: string, userName: string) =>
      (
        await requestAt<{ token: string }>(url, 'POST', '/api/v1/auth/signin', {
          body: { userName, password: DEMO_PASSWORD },
        })
      ).body.token;
    try {
      const [admin, worker1] = [await signIn(first.url, 'werkadmin'), await signIn(first.url, 'staff')];
      const order = await createWagonOrder(
        { request: (m, r, o) => requestAt(first.url, m, r, o) } as TestServer,
        worker1,
      );
      const changed = await requestAt(first.url, 'POST', `/api/v1/orders/${order.id}/status`, {
        token: admin,
        body: { status: 'IN_QA' },
      });
      expect(changed.status).toBe(200);
      // The worker is in the middle of sending (the SMTP server has not answered RCPT TO yet): it is killed.
      await held.reached;
      first.child.kill('SIGKILL');
      await new Promise((resolve) => first.child.once('exit', resolve));
      held.release();
      expect(killedSmtp.received.filter((mail) => to(mail) === 'leitung-nord@example.org')).toHaveLength(0);

      // The next start, on the database the killed worker left. Nothing but pg-boss brings the mail out again: its
      // job is still active (the start's flush adds no second job with the same id), expires, and is retried.
      second = await startServerProcess(env);
      const secondUrl = second.url;
      const token = await signIn(secondUrl, 'werkadmin');
      let mails: NotificationMail[] = [];
      for (let i = 0; i < 1800; i++) {
        mails = (
          await requestAt<NotificationMail[]>(secondUrl, 'GET', '/api/v1/notificationMails', { token })
        ).body.filter((mail) => mail.orderNumber === order.number);
        if (mails.length === 2 && mails.every((mail) => mail.status !== 'WAITING')) break;
        await sleep(100);
      }
      expect(mails.map((mail) => mail.status)).toEqual(['SENT', 'SENT']);
      const killed = mails.find((mail) => mail.address === 'leitung-nord@example.org')!;
      // The killed attempt and the one that sent it; on a busy machine a 2 s SMTP step may time out in between.
      expect(killed.attempts).toBeGreaterThanOrEqual(2);

      const received = killedSmtp.received.filter((mail) => mail.parsed.subject?.includes(order.number));
      expect(received.map(to).sort()).toEqual(['leitung-nord@example.org', 'quality-north@example.org']);
      // The same message both times: the Message-ID is the mail's own (outbox.ts).
      expect(received.find((mail) => to(mail) === 'leitung-nord@example.org')?.parsed.messageId).toBe(
        `<${killed.id}@vers.mail>`,
      );
    } finally {
      for (const process of [first, second]) {
        if (process && process.child.exitCode === null && process.child.signalCode === null)
          process.child.kill('SIGKILL');
      }
      held.release();
      await killedSmtp.close();
      await created?.drop();
    }
  });
});
