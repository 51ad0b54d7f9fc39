import { ActiveProvider, capacity, STANDARD_RESOURCE_CLASSES } from '#domain/index.js';
import type { ProviderNode } from '#placement/candidates/index/provider-index.js';
import type { Candidate } from '#placement/candidates/search/combine.js';
import { OneProviderCandidate } from '#placement/candidates/search/one-group.js';
import type { CandidateResult } from '#placement/candidates/search/search.js';
import { summarized, TreePart, TreeSlice } from '#placement/candidates/search/tree-answers.js';
import type { CandidateRequest } from '#placement/candidates/request.js';
import { Version } from '../platform/microversion.js';
import { AsciiWriter } from './ascii-writer.js';
import type { ReplyBuffers } from './reply-buffers.js';

// Every string here is a provider uuid (canonical), a class or trait name ([A-Z0-9_]) or a group
// suffix ([a-zA-Z0-9_-]): none ever needs escaping, so they are quoted as they are.
const str = (text: string) => `"${text}"`;

/** How the answer is shaped at a microversion (upstream's _transform_* functions). */
interface Shape {
  readonly dictForm: boolean;    // 1.12: allocations keyed by provider, ready for PUT /allocations
  readonly mappings: boolean;    // 1.34
  readonly traits: boolean;      // 1.17
  readonly allClasses: boolean;  // 1.27: every class of the provider, not just the requested ones
  readonly tree: boolean;        // 1.29: parent and root uuids
}

const shapeOf = (version: Version): Shape => ({
  dictForm: version.matches('1.12'), mappings: version.matches('1.34'), traits: version.matches('1.17'),
  allClasses: version.matches('1.27'), tree: version.matches('1.29'),
});

type Resources = ReadonlyArray<readonly [string, number]>;

/** Candidates share the resources array of a group they take whole, so each is rendered once. */
class ResourcesText {
  private readonly texts = new Map<Resources, string>();

  of(resources: Resources): string {
    let text = this.texts.get(resources);
    if (text === undefined) this.texts.set(resources, (text = `{${resources.map(([rc, n]) => `${str(rc)}:${n}`).join(',')}}`));
    return text;
  }
}

/**
 * The bytes of a one-provider candidate depend only on the provider, the group's resources and
 * suffix and the shape, so repeated queries (the scheduler's) reuse them: one entry per provider,
 * checked field by field (no key is built per candidate), copied into the answer as bytes.
 */
interface OneProviderBytes { readonly shape: string; readonly suffix: string; readonly resources: string; readonly bytes: Buffer }
const oneProviderBytes = new WeakMap<ProviderNode, OneProviderBytes>();

function oneProviderRequest(candidate: OneProviderCandidate, shape: Shape, texts: ResourcesText, shapeKey: string): Buffer {
  const resources = texts.of(candidate.resources);
  const hit = oneProviderBytes.get(candidate.provider);
  if (hit && hit.shape === shapeKey && hit.suffix === candidate.suffix && hit.resources === resources) return hit.bytes;
  const out = new AsciiWriter(256);
  writeRequest(out, candidate, shape, texts);
  // Copied out of the writer's larger buffer: the cache keeps exactly the request's bytes.
  const bytes = Buffer.from(out.done());
  oneProviderBytes.set(candidate.provider, { shape: shapeKey, suffix: candidate.suffix, resources, bytes });
  return bytes;
}

/** One allocation request, written piece by piece: no intermediate strings per candidate. */
function writeRequest(out: AsciiWriter, candidate: Candidate, shape: Shape, texts: ResourcesText): void {
  const { allocations, mappings } = candidate;
  if (!shape.dictForm) {
    out.text('{"allocations":[');
    allocations.forEach((a, i) => {
      out.text(i === 0 ? '{"resource_provider":{"uuid":"' : ',{"resource_provider":{"uuid":"');
      out.text(a.provider.uuid);
      out.text('"},"resources":');
      out.text(texts.of(a.resources));
      out.text('}');
    });
    out.text(']}');
    return;
  }
  out.text('{"allocations":{');
  allocations.forEach((a, i) => {
    out.text(i === 0 ? '"' : ',"');
    out.text(a.provider.uuid);
    out.text('":{"resources":');
    out.text(texts.of(a.resources));
    out.text('}');
  });
  if (!shape.mappings) {
    out.text('}}');
    return;
  }
  out.text('},"mappings":{');
  mappings.forEach(([suffix, nodes], i) => {
    out.text(i === 0 ? '"' : ',"');
    out.text(suffix);
    out.text('":[');
    nodes.forEach((node, j) => {
      out.text(j === 0 ? '"' : ',"');
      out.text(node.uuid);
      out.text('"');
    });
    out.text(']');
  });
  out.text('}}');
}

const STANDARD_RANK = new Map(STANDARD_RESOURCE_CLASSES.map((name, index) => [name, index]));
const classRank = (rc: string) => STANDARD_RANK.get(rc) ?? STANDARD_RESOURCE_CLASSES.length;

/**
 * Classes in upstream's row order, class id order: standard classes as os-resource-classes lists
 * them, then custom ones (here in the order the provider's inventory event lists them).
 */
function summary(node: ProviderNode, shape: Shape, requested: ReadonlySet<string> | null): string {
  const { state } = node;
  const classes = Object.keys(state.inventories).filter((rc) => !requested || requested.has(rc)).sort((a, b) => classRank(a) - classRank(b));
  const resources = classes.map((rc) => `${str(rc)}:{"capacity":${capacity(state.inventories[rc])},"used":${state.usages[rc] ?? 0}}`);
  let text = `{"resources":{${resources.join(',')}}`;
  if (shape.traits) text += `,"traits":[${state.traits.map(str).join(',')}]`;
  if (shape.tree) text += `,"parent_provider_uuid":${state.parentUuid === null ? 'null' : str(state.parentUuid)},"root_provider_uuid":${str(node.root.uuid)}`;
  return `${text}}`;
}

/** A provider's summary bytes in one shape, for one state and root: what ProviderNode.presented holds. */
interface PresentedSummary { readonly key: string; readonly state: ActiveProvider; readonly root: ProviderNode; readonly bytes: Buffer }

/**
 * A summary changes only with its provider's state (a new object on every change) or root, so
 * the bytes of the shapes that list every class are kept per state, on the provider's node (one
 * shape at a time: a cloud's scheduler asks at one microversion), and copied into later answers.
 */
function summaryBytes(node: ProviderNode, shape: Shape, key: string): Buffer {
  const hit = node.presented as PresentedSummary | null | undefined;
  if (hit && hit.state === node.state && hit.root === node.root && hit.key === key) return hit.bytes;
  const bytes = Buffer.from(`${str(node.uuid)}:${summary(node, shape, null)}`, 'latin1');
  node.presented = { key, state: node.state, root: node.root, bytes } satisfies PresentedSummary;
  return bytes;
}

/** One entry of provider_summaries: the provider's kept bytes where every class is listed, else written for the requested classes. */
function writeSummary(out: AsciiWriter, node: ProviderNode, shape: Shape, key: string, requested: ReadonlySet<string> | null): void {
  if (requested) out.text(`${str(node.uuid)}:${summary(node, shape, requested)}`);
  else out.bytes(summaryBytes(node, shape, key));
}

const COMMA = 0x2c;

/** A kept tree part's bytes in one shape: its requests and its providers' summaries, each comma-joined. */
interface PartBytes { readonly key: string; readonly requests: Buffer; readonly summaries: Buffer }

/** What every request and summary of a whole part writes; kept on the part while the tree is unchanged. */
function partBytes(part: TreePart, shape: Shape, texts: ResourcesText, key: string, requested: ReadonlySet<string> | null): PartBytes {
  const hit = part.presented as PartBytes | undefined;
  if (hit && hit.key === key) return hit;
  const out = new AsciiWriter(part.candidates.length * 320 + 64);
  let next = separator(out);
  for (const candidate of part.candidates) {
    next();
    writeRequest(out, candidate, shape, texts);
  }
  // Copied out of each writer's larger buffer: the part keeps exactly its bytes.
  const requests = Buffer.from(out.done());
  const list = new AsciiWriter(part.members.length * 320 + 64);
  next = separator(list);
  if (part.summarized) {
    for (const node of part.members) {
      next();
      writeSummary(list, node, shape, key, requested);
    }
  }
  const bytes: PartBytes = { key, requests, summaries: Buffer.from(list.done()) };
  part.presented = bytes;
  return bytes;
}

/** A comma before every item written after it but the first. */
function separator(out: AsciiWriter): () => void {
  let first = true;
  return () => {
    if (!first) out.byte(COMMA);
    first = false;
  };
}

/** The same body, tree by tree: a whole kept part is copied as bytes, a part cut short is written as before. */
function presentTrees(trees: readonly TreeSlice[], shape: Shape, key: string, requested: ReadonlySet<string> | null, out: AsciiWriter): Buffer {
  const texts = new ResourcesText();
  const whole = (slice: TreeSlice) => (slice.part && slice.candidates === slice.part.candidates ? partBytes(slice.part, shape, texts, key, requested) : null);
  out.text('{"allocation_requests":[');
  let next = separator(out);
  for (const slice of trees) {
    const bytes = whole(slice);
    if (bytes) {
      next();
      out.bytes(bytes.requests);
    } else {
      for (const candidate of slice.candidates) {
        next();
        writeRequest(out, candidate, shape, texts);
      }
    }
  }
  out.text('],"provider_summaries":{');
  next = separator(out);
  for (const slice of trees.filter(summarized)) {
    const bytes = whole(slice);
    if (bytes) {
      next();
      out.bytes(bytes.summaries);
    } else {
      for (const node of slice.members) {
        next();
        writeSummary(out, node, shape, key, requested);
      }
    }
  }
  out.text('}}');
  return out.done();
}

/** Bodies larger than this are not kept (at most sixteen are, see KeptResults): nested-1000's unlimited answer is 2.4 MB, 100,000 providers' 45 MB. */
const LARGEST_KEPT_BODY = 4 * 1024 * 1024;

/**
 * A result's body in one shape (see KeptResults: the search gives the same result object while
 * nothing was written). Kept from its second presentation on: the first is written into a
 * reused buffer, as every answer between two writes (a scheduler claiming after each) is.
 */
interface KeptBody { readonly key: string; body: Buffer | 'seen once' | 'too large' }
const keptBodies = new WeakMap<CandidateResult, KeptBody>();

/**
 * The body of GET /allocation_candidates as JSON bytes. Written straight to a buffer because a
 * thousand candidates make about half a megabyte and this is the scheduler's hot path; into
 * one of `buffers`, when given, which the caller gives back once the reply is sent (a kept
 * body never came from them, so it is never given back).
 */
export function presentCandidates(result: CandidateResult, request: CandidateRequest, version: Version, buffers?: ReplyBuffers): Buffer {
  const shape = shapeOf(version);
  const key = `${shape.dictForm}${shape.mappings}${shape.traits}${shape.tree}${shape.allClasses}`;
  const kept = keptBodies.get(result);
  if (kept?.key !== key) {
    keptBodies.set(result, { key, body: 'seen once' });
    return writeBody(result, request, shape, key, buffers);
  }
  if (kept.body instanceof Buffer) return kept.body;
  // Too large to keep: written into a reused buffer every time, as before bodies were kept.
  if (kept.body === 'too large') return writeBody(result, request, shape, key, buffers);
  const bytes = writeBody(result, request, shape, key);
  kept.body = bytes.length <= LARGEST_KEPT_BODY ? bytes : 'too large';
  return bytes;
}

function writeBody(result: CandidateResult, request: CandidateRequest, shape: Shape, key: string, buffers?: ReplyBuffers): Buffer {
  const texts = new ResourcesText();
  const size = (result.candidates.length + result.summaries.length) * 320 + 64;
  const requested = shape.allClasses ? null : new Set(request.groups.flatMap((g) => g.resources.map(([rc]) => rc)));
  const out = new AsciiWriter(size, buffers?.take(size));
  if (result.trees) return presentTrees(result.trees, shape, key, requested, out);
  out.text('{"allocation_requests":[');
  result.candidates.forEach((candidate, i) => {
    if (i > 0) out.byte(COMMA);
    if (candidate instanceof OneProviderCandidate) out.bytes(oneProviderRequest(candidate, shape, texts, key));
    else writeRequest(out, candidate, shape, texts);
  });
  out.text('],"provider_summaries":{');
  result.summaries.forEach((node, i) => {
    if (i > 0) out.byte(COMMA);
    writeSummary(out, node, shape, key, requested);
  });
  out.text('}}');
  return out.done();
}
