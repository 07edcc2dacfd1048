import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { API_BASE, apiRight, DEFAULT_MAX_PICTURE_BYTES } from '@vers/domain';
import Fastify, { type FastifyInstance } from 'fastify';
import { type ZodTypeProvider, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { authRoutes } from './auth/routes.ts';
import { registerAuthentication } from './auth/session.ts';
import type { TokenService } from './auth/tokens.ts';
import type { Db, ExecuteSql } from './db/client.ts';
import { ApiError, answerClientError, registerErrorHandling } from './http/errors.ts';
import { documentObject, documentTransform, documentedSchema, registerBodyTypes } from './http/openapi.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { signOffRoutes } from './sign-off/routes.ts';
import { refuseMalformedText } from './http/well-formed-text.ts';
import { systemRoutes } from './system/routes.ts';
import { usersRoutes } from './users/routes.ts';
import { workshopRoutes } from './workshops/routes.ts';
import { emailAddressRoutes } from './email-addresses/routes.ts';
import { auditRoutes } from './audit/routes.ts';
import { defaultOptionRoutes } from './default-options/routes.ts';
import { orderListRoutes } from './orders/list.ts';
import { orderRoutes } from './orders/routes.ts';
import { activityRoutes } from './activity/routes.ts';
import { assetRoutes } from './assets/routes.ts';
import { type AssetStorage, postgresAssetStorage } from './assets/storage.ts';
import { documentRoutes } from './documents/routes.ts';
import { holderRoutes } from './holder/routes.ts';
import { dashboardRoutes } from './dashboard/routes.ts';
import { deadlineRoutes } from './deadlines/routes.ts';
import { keeperRoutes } from './keepers/routes.ts';
import { backfillKeeperVkm } from './orders/keeper-vkm.ts';
import { generateDocumentJob } from './documents/generate.ts';
import { validateImportJob } from './imports/validation.ts';
import { DEFAULT_JOB_TIMING, type JobTiming, QUEUES, startJobQueue } from './jobs/queue.ts';
import { deliverMail } from './mail/deliver.ts';
import { DIGEST_CRON, weeklyDigest } from './mail/digest.ts';
import { type MailOutbox, mailOutbox } from './mail/outbox.ts';
import { mailRoutes } from './mail/routes.ts';
import { DEFAULT_MAIL_FROM, createMailTransport, type MailSettings, smtpTimeoutMs } from './mail/transport.ts';

export interface ApiRoute {
  method: string;
  /** The path as registered, e.g. `/api/v1/orders/:id`. */
  url: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    apiRoutes: readonly ApiRoute[];
  }
}

export interface AppDeps {
  db: Db;
  /** The same database for the job queue's own SQL (pg-boss). */
  executeSql: ExecuteSql;
  /** Document jobs this instance runs at once; 1 when absent. */
  jobConcurrency?: number;
  /** Jobs' expiry and the mails' retry wait (VERS_JOB_EXPIRE_SECONDS, VERS_MAIL_RETRY_SECONDS); defaults when absent. */
  jobTiming?: JobTiming;
  tokens: TokenService;
  gitSha: string;
  /** Folder of the built web app, served at / when it exists. */
  webDist?: string;
  logLevel?: string;
  /** Largest picture upload (VERS_MAX_PICTURE_BYTES); DEFAULT_MAX_PICTURE_BYTES when absent. */
  maxPictureBytes?: number;
  /** Where the content of assets is kept; in the database when absent. */
  assetStorage?: AssetStorage;
  /**
   * Reverse proxies (addresses or CIDR ranges, comma-separated) whose X-Forwarded-For is believed, so that the
   * sign-in limit counts clients, not the proxy. Only these: a header from anyone else is ignored, or a client could
   * name a fresh address for every guess.
   */
  trustProxy?: string;
  /**
   * Where notification mails go: SMTP (VERS_SMTP_URL) or .eml files in the outbox folder. Absent (tests that are not
   * about mail): files in a folder of the system's temporary folder, made only when a mail is written.
   */
  mail?: MailSettings;
}

/** Largest JSON body accepted; a bigger one answers 413. (POST assets takes a maximal picture's.) */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** A file's content, read again only when its modification time or size changed (a new build beside a running server). */
function fileInMemory(file: string): () => Buffer {
  let seen = '';
  let content = Buffer.alloc(0);
  return () => {
    const { mtimeMs, size } = statSync(file);
    if (`${mtimeMs}:${size}` !== seen) {
      content = readFileSync(file);
      seen = `${mtimeMs}:${size}`;
    }
    return content;
  };
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: { level: deps.logLevel ?? 'info' },
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: deps.trustProxy ?? false,
    clientErrorHandler: answerClientError,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  registerBodyTypes(app);
  refuseMalformedText(app);
  registerSecurityHeaders(app);
  // Only the device cookie of the sign-in limits (auth/throttle.ts); sessions travel as bearer tokens.
  await app.register(fastifyCookie);
  // Every API call the app answers, so that the access-control test finds a route that has no documented rights.
  const apiRoutes: ApiRoute[] = [];
  app.decorate('apiRoutes', apiRoutes);
  // Every API route takes who may call it from the one rights table (packages/domain/src/rights.ts); a route the
  // table does not name stops the server at start, so no call is ever open by omission. The OpenAPI document takes
  // its security and 401/403 answers from the same entry.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith(API_BASE)) return;
    const methods = [route.method].flat();
    for (const method of methods) if (method !== 'HEAD') apiRoutes.push({ method, url: route.url });
    // The HEAD route Fastify adds beside a GET route has the GET's rights.
    const rights = methods.map((method) => apiRight(method === 'HEAD' ? 'GET' : method, route.url));
    const [first] = rights;
    if (!first || rights.some((right) => right !== first)) {
      throw new Error(`${methods.join(',')} ${route.url} has no single entry in the rights table (packages/domain)`);
    }
    route.config = {
      ...route.config,
      ...(first.access === 'public' ? { public: true } : {}),
      ...(Array.isArray(first.access) ? { roles: first.access } : {}),
      ...(first.refusal ? { refusal: first.refusal } : {}),
    };
    route.schema = documentedSchema(route.schema, first.method, route.url, first);
  });

  // The keeper VKM of orders from before migration 0014, derived by the domain's rule before any call is answered.
  await backfillKeeperVkm(deps.db);

  const storage = deps.assetStorage ?? postgresAssetStorage(deps.db);
  const mailSettings = deps.mail ?? {
    outboxDir: path.join(tmpdir(), `vers-outbox-${randomUUID()}`),
    from: DEFAULT_MAIL_FROM,
  };
  const jobTiming = deps.jobTiming ?? DEFAULT_JOB_TIMING;
  const mailTransport = createMailTransport(mailSettings, smtpTimeoutMs(jobTiming));
  // The digest job hands its mails to the queue it runs in, known once the queue has started.
  const started: { outbox?: MailOutbox } = {};
  const jobs = await startJobQueue(
    deps.executeSql,
    {
      [QUEUES.importValidation]: ({ assetId }) => validateImportJob(deps.db, storage, assetId),
      [QUEUES.documentGeneration]: ({ assetId }) => generateDocumentJob(deps.db, storage, assetId),
      [QUEUES.mailDelivery]: ({ assetId }) => deliverMail(deps.db, mailTransport, assetId, jobTiming.expireSeconds),
      // A digest job runs only at its cron time, after the start.
      [QUEUES.mailDigest]: () =>
        started.outbox ? weeklyDigest(deps.db, started.outbox) : Promise.reject(new Error('not started')),
    },
    deps.jobConcurrency,
    { [QUEUES.mailDigest]: DIGEST_CRON },
    jobTiming,
  );
  app.addHook('onClose', async () => {
    await jobs.stop();
    mailTransport.close();
  });
  const mails = mailOutbox(deps.db, jobs);
  started.outbox = mails;
  // Mails whose event committed but whose job was never queued (a crash in between) go out now.
  await mails.flush();

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'VERS API', version: deps.gitSha.slice(0, 8) },
      // The document describes the server that serves it (its paths begin with /api/v1).
      servers: [{ url: '/' }],
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: documentTransform,
    transformObject: documentObject,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  await app.register(
    async (api) => {
      registerAuthentication(api, deps.db, deps.tokens);
      await api.register(authRoutes(deps.db, deps.tokens));
      await api.register(systemRoutes(deps.db, deps.gitSha));
      await api.register(usersRoutes(deps.db, deps.tokens));
      await api.register(workshopRoutes(deps.db));
      await api.register(emailAddressRoutes(deps.db));
      await api.register(auditRoutes(deps.db));
      await api.register(defaultOptionRoutes(deps.db));
      await api.register(orderRoutes(deps.db, mails));
      await api.register(orderListRoutes(deps.db));
      await api.register(activityRoutes(deps.db));
      await api.register(
        assetRoutes(deps.db, {
          storage,
          jobs,
          maxPictureBytes: deps.maxPictureBytes ?? DEFAULT_MAX_PICTURE_BYTES,
        }),
      );
      await api.register(documentRoutes(deps.db, jobs));
      await api.register(signOffRoutes(deps.db, mails));
      await api.register(mailRoutes(deps.db, mailSettings.outboxDir));
      await api.register(keeperRoutes(deps.db));
      await api.register(holderRoutes(deps.db, { storage, jobs }));
      await api.register(dashboardRoutes(deps.db));
      await api.register(deadlineRoutes(deps.db));
    },
    { prefix: API_BASE },
  );

  const webDist = deps.webDist && existsSync(path.join(deps.webDist, 'index.html')) ? deps.webDist : undefined;
  if (webDist) {
    // The build's files, as paths of the URL (`/assets/x.js`); read once, as the route per file was made before.
    const builtFiles = new Set(
      readdirSync(webDist, { recursive: true, withFileTypes: true })
        .filter((entry) => entry.isFile())
        .map(
          (entry) => `/${path.relative(webDist, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')}`,
        ),
    );
    await app.register(fastifyStatic, {
      root: webDist,
      // One route for all files, not one per file (~150 ms of a start's CPU for the ~340 files). Only the build's
      // files are served; any other path goes to the not-found handler below without touching the disk.
      wildcard: true,
      allowedPath: (pathname) => builtFiles.has(pathname),
      index: false,
      // The build writes a .br and a .gz copy of each text file (apps/web/vite.config.ts, precompress): sent to
      // browsers that accept them, with Vary: Accept-Encoding.
      preCompressed: true,
      cacheControl: false, // set below, per file
      setHeaders(res, filePath) {
        // Hashed bundles never change; everything else (index.html, COMMIT, service worker) is asked anew.
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
        // The body depends on Accept-Encoding (preCompressed): a shared cache must keep the variants apart.
        res.setHeader('Vary', 'Accept-Encoding');
      },
    });
  }

  const indexHtml = webDist ? fileInMemory(path.join(webDist, 'index.html')) : undefined;
  app.setNotFoundHandler(async (request, reply) => {
    const url = request.url.split('?')[0] ?? '';
    if (url === '/api' || url.startsWith('/api/')) {
      throw new ApiError(404, 'NOT_FOUND', `No API call ${request.method} ${url}`);
    }
    if (!webDist || (request.method !== 'GET' && request.method !== 'HEAD')) {
      throw new ApiError(404, 'NOT_FOUND', `Nothing at ${url}`);
    }
    // Every file of the build is served above; any other path is the app, whose router takes it. Also the
    // browsers' online check (a GET of the origin every 10 s per device): from memory, not from the disk per call.
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml!());
  });

  return app;
}
