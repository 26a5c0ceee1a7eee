import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type * as z from 'zod/mini';
import type { ApiContract } from '../../src/shared/api/contract';
import { ErrorCode } from '../../src/shared/errors/catalogue';
import { maxImageBytes } from '../../src/shared/uploads/image-rules';
import { AppError } from './app-error';
import { contractProblems } from './contract-problems';
import { rememberContractBody } from './idempotency';
import { success } from './envelope';
import { containsNul } from './nul-guard';

/** A file part as the handler receives it: the sender's name for it and its bytes (at most 10 MB). */
export interface UploadedFile {
  filename: string;
  bytes: Buffer;
}

export type MultipartHandler<TMeta extends z.ZodMiniType, TData extends z.ZodMiniType, TRequest extends FastifyRequest> = (
  meta: z.output<TMeta>,
  files: Partial<Record<string, UploadedFile>>,
  request: TRequest,
) => Promise<z.input<TData>>;

/**
 * Multipart bodies (../shared/API.md: a JSON `metaData` text part and image parts): parts
 * are read only by the routes that take them, each file capped at 10 MB (HTTP 413 with the
 * upload limit message), a handful of parts in all (more answers 413 too).
 */
export async function registerMultipart(app: FastifyInstance) {
  await app.register(multipart, {
    limits: { fileSize: maxImageBytes, files: 4, fields: 2, parts: 6, fieldSize: 16 * 1024, headerPairs: 50 },
  });
}

const uploadLimitExceeded = () =>
  new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, 'file above the upload limit', 413, null, { key: 'upload.limit_exceeded', params: {} });

function badBody(detail: string, problems: string[] = []) {
  return new AppError(ErrorCode.INCORRECT_PARAMETER_CONTENT, detail, 200, problems.length > 0 ? { problems } : null);
}

/**
 * Reads a multipart call: `metaData` parsed as JSON and checked against the contract's body
 * (strict, like every JSON call), each named file part's bytes; an unexpected or repeated
 * part is refused. Everything is read before the handler runs, so a refusal changes nothing.
 */
async function readMultipartCall<TMeta extends z.ZodMiniType>(request: FastifyRequest, metaSchema: TMeta, fileFields: readonly string[]) {
  if (!request.isMultipart()) throw badBody('expected a multipart/form-data body');
  let metaText: string | null = null;
  const files: Partial<Record<string, UploadedFile>> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (!fileFields.includes(part.fieldname) || files[part.fieldname]) {
          part.file.resume();
          throw badBody(`unexpected file part ${part.fieldname}`);
        }
        files[part.fieldname] = { filename: part.filename, bytes: await part.toBuffer() };
      } else {
        if (part.fieldname !== 'metaData' || metaText !== null) throw badBody(`unexpected field ${part.fieldname}`);
        metaText = String(part.value);
      }
    }
  } catch (error) {
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw uploadLimitExceeded();
    throw error;
  }
  let meta: unknown;
  try {
    meta = JSON.parse(metaText ?? '{}');
  } catch {
    throw badBody('metaData is not JSON');
  }
  if (containsNul(meta)) throw badBody('NUL in metaData');
  const parsed = metaSchema.safeParse(meta);
  if (!parsed.success) {
    throw badBody('metaData does not match the contract', contractProblems(parsed.error, '(metaData)'));
  }
  return { meta: parsed.data as z.output<TMeta>, files };
}

/** Registers a multipart contract as a POST route of `instance` (a signed-in scope's), answered with the contract's envelope. */
export function defineMultipartRoute<TMeta extends z.ZodMiniType, TData extends z.ZodMiniType, TRequest extends FastifyRequest>(
  instance: FastifyInstance,
  contract: ApiContract<TMeta, TData>,
  fileFields: readonly string[],
  handler: MultipartHandler<TMeta, TData, TRequest>,
  narrow: (request: FastifyRequest) => TRequest,
) {
  instance.post(contract.path, async (request: FastifyRequest, reply: FastifyReply) => {
    const { meta, files } = await readMultipartCall(request, contract.body, fileFields);
    rememberContractBody(request, { meta, files });
    const data = await handler(meta, files, narrow(request));
    return reply.send(success(contract.data.parse(data)));
  });
}

/** Sends a stored file: private to this caller, never cached, never sniffed into another type. */
export function sendPrivateFile(reply: FastifyReply, file: { bytes: Buffer; contentType: string }) {
  return reply
    .header('Cache-Control', 'private, no-store')
    .header('X-Content-Type-Options', 'nosniff')
    .header('Content-Disposition', 'inline')
    .type(file.contentType)
    .send(file.bytes);
}
