import { type ApiRight, errorBodySchema } from '@vers/domain';
import type { SwaggerTransformObject } from '@fastify/swagger';
import type { FastifyInstance, FastifySchema } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiError } from './errors.ts';

/*
 * What the OpenAPI document (/api/docs/json) says beyond each route's own schema, and the rules that keep it true:
 * access from the rights table, the body types a route takes. scripts/lint-openapi.ts lints the document;
 * openapi.test.ts calls every route to compare it with what the server does.
 */

/** The answer of a call that answers with no body (204): the document shows no content for it. */
export const noContent = z.undefined().describe('No content');

export const JSON_MEDIA_TYPE = 'application/json';
export const TEXT_MEDIA_TYPE = 'text/plain';

const notSignedIn = errorBodySchema.describe('No valid bearer token: not signed in, or the session has ended');
const notAllowed = errorBodySchema.describe('The signed-in user has none of the roles this call needs');
const wrongBodyType = errorBodySchema.describe('The body is not of a type this call takes');
const invalidRequest = errorBodySchema.describe('The request does not fit the call: its path, query or body');
const bodyTooLarge = errorBodySchema.describe('The body is larger than this call takes');

/**
 * A route's schema as the document shows it. Access as the rights table gives it: a public route needs no token
 * (`security: []` overrides the document's bearer requirement); every other route keeps that requirement and answers
 * 401 without a valid token, and a route limited to roles answers 403 to the others. What any route with input
 * answers: 400 to input its schema refuses, and with a body, 413 beyond the body limit and 415 to a body of another
 * type (registerBodyTypes). An operationId comes from method and path.
 */
export function documentedSchema(schema: FastifySchema | undefined, method: string, url: string, right: ApiRight) {
  const response = { ...(schema?.response as Record<string, unknown> | undefined) };
  if (right.access !== 'public') response['401'] ??= notSignedIn;
  if (Array.isArray(right.access)) response['403'] ??= notAllowed;
  if (schema?.params || schema?.querystring || schema?.body) response['400'] ??= invalidRequest;
  if (schema?.body) {
    response['413'] ??= bodyTooLarge;
    response['415'] ??= wrongBodyType;
  }
  return {
    ...schema,
    operationId: schema?.operationId ?? operationId(method, url),
    ...(right.access === 'public' ? { security: [] } : {}),
    response,
  };
}

/** `PUT /api/v1/users/:id/changePassword` → `putUsersByIdChangePassword`: unique as method and path are. */
export function operationId(method: string, url: string): string {
  const words = url
    .replace(/^\/api\/v\d+\//, '')
    .split(/[/-]/)
    .filter((part) => part !== '')
    .map((part) => (part.startsWith(':') ? `By${capitalise(part.slice(1))}` : capitalise(part)));
  return method.toLowerCase() + words.join('');
}

const capitalise = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** The media types a route's body may have: its schema's `consumes`, else JSON; none for a route without a body. */
export function bodyMediaTypes(schema: FastifySchema | undefined): readonly string[] {
  if (!schema?.body) return [];
  return schema.consumes ?? [JSON_MEDIA_TYPE];
}

/**
 * A body of a type its route does not declare answers 415 before it is read, so the document's request content
 * types are the ones the server takes: a JSON string is no password, plain text no JSON object.
 */
export function registerBodyTypes(app: FastifyInstance) {
  app.addHook('preParsing', async (request, _reply, payload) => {
    const accepted = bodyMediaTypes(request.routeOptions.schema);
    const header = request.headers['content-type'];
    if (accepted.length === 0 || header === undefined) return payload;
    const mediaType = (header.split(';')[0] ?? '').trim().toLowerCase();
    if (!accepted.includes(mediaType)) {
      throw new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', `This call takes ${accepted.join(' or ')}, not ${mediaType}`);
    }
    return payload;
  });
}

/** Marks, for documentObject, an operation whose body may be left out. */
const OPTIONAL_BODY = 'x-vers-optional-body';

/**
 * The document's transform of each route (fastify-type-provider-zod's), marking a route whose body schema takes no
 * body at all: @fastify/swagger declares every request body required.
 */
export const documentTransform: typeof jsonSchemaTransform = (input) => {
  const result = jsonSchemaTransform(input);
  const body: unknown = input.schema?.body;
  if (body instanceof z.ZodType && body.safeParse(undefined).success) {
    return { ...result, schema: { ...result.schema, [OPTIONAL_BODY]: true } };
  }
  return result;
};

/** The whole document, last: a marked operation's body is not required. */
export const documentObject: SwaggerTransformObject = (input) => {
  if (!('openapiObject' in input)) return input.swaggerObject;
  for (const methods of Object.values(input.openapiObject.paths ?? {})) {
    for (const operation of Object.values(methods ?? {}) as unknown[]) {
      if (typeof operation !== 'object' || operation === null || !(OPTIONAL_BODY in operation)) continue;
      const marked = operation as { [OPTIONAL_BODY]?: true; requestBody?: { required?: boolean } };
      delete marked[OPTIONAL_BODY];
      if (marked.requestBody) marked.requestBody.required = false;
    }
  }
  return input.openapiObject;
};
