import { capacity, STANDARD_RESOURCE_CLASSES } from '#domain/index.js';
import type { ProviderNode } from '#placement/candidates/index/provider-index.js';
import type { Candidate } from '#placement/candidates/search/combine.js';
import { OneProviderCandidate } from '#placement/candidates/search/one-group.js';
import type { CandidateResult } from '#placement/candidates/search/search.js';
import { summarized, TreePart, TreeSlice } from '#placement/candidates/reuse/tree-answers.js';
import type { CandidateRequest } from '#placement/candidates/request.js';
import { Version } from '../platform/microversion.js';
import { AsciiWriter } from './ascii-writer.js';
import type { AnswerReuse } from '#placement/candidates/reuse/answer-reuse.js';
import type { KeptBytes } from '#placement/candidates/reuse/kept-bytes.js';
import type { ReplyBuffers } from '#placement/candidates/reuse/reply-buffers.js';
import { runToEnd, Steps } from '#placement/candidates/search/steps.js';
import type { Walked } from '#placement/candidates/search/result.js';
import { BytePauses } from './byte-pauses.js';
import { EarlierList, EntryStarts, writeEntries } from './entry-runs.js';

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

/** Stands for the provider's uuid in a one-provider request's template: no uuid, class or suffix holds it. */
const PROVIDER = '\u0001';

/** Candidates share the resources array of a group they take whole, so each is rendered once per answer. */
class ResourcesText {
  private readonly texts = new Map<Resources, string>();
  private readonly templates = new Map<Resources, Map<string, string[]>>();

  of(resources: Resources): string {
    let text = this.texts.get(resources);
    if (text === undefined) this.texts.set(resources, (text = `{${resources.map(([rc, n]) => `${str(rc)}:${n}`).join(',')}}`));
    return text;
  }

  /**
   * A one-provider request is the same text for every provider but for its uuid: the text around
   * each place the uuid goes, made once per answer from writeRequest itself, so both always agree.
   */
  template(resources: Resources, suffix: string, shape: Shape): string[] {
    let bySuffix = this.templates.get(resources);
    if (!bySuffix) this.templates.set(resources, (bySuffix = new Map()));
    let template = bySuffix.get(suffix);
    if (template === undefined) {
      const out = new AsciiWriter(256);
      writeRequest(out, new OneProviderCandidate({ uuid: PROVIDER } as ProviderNode, resources, suffix), shape, this);
      bySuffix.set(suffix, (template = out.done().toString('latin1').split(PROVIDER)));
    }
    return template;
  }
}

/** What one presentation writes with: the shape, the classes asked for, and where bytes are kept between answers. */
interface Presentation {
  readonly shape: Shape;
  /** The shape as text: kept bytes are good for one shape. */
  readonly key: string;
  readonly texts: ResourcesText;
  /** null: every class of a provider is summarized (1.27). */
  readonly requested: ReadonlySet<string> | null;
  readonly kept: KeptBytes;
}

/**
 * A one-provider candidate, the flat scheduler query's, from its template: the scheduler asks
 * another flavor after every claim, so its text is made anew each answer, never looked up.
 */
function writeOneProviderRequest(out: AsciiWriter, candidate: OneProviderCandidate, p: Presentation): void {
  const template = p.texts.template(candidate.resources, candidate.suffix, p.shape);
  out.text(template[0]);
  for (let i = 1; i < template.length; i++) {
    out.text(candidate.provider.uuid);
    out.text(template[i]);
  }
}

/** One allocation request, written piece by piece: no intermediate strings per candidate. */
function writeRequest(out: AsciiWriter, candidate: Candidate, shape: Shape, texts: ResourcesText): void {
  const { allocations, mappings } = candidate;
  if (!shape.dictForm) {
    out.text('{"allocations":[');
    writeAllocations(out, allocations, texts, '{"resource_provider":{"uuid":"', '"},"resources":');
    out.text(']}');
    return;
  }
  out.text('{"allocations":{');
  writeAllocations(out, allocations, texts, '"', '":{"resources":');
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

/**
 * Each allocation of a request as `<open><uuid><middle><resources>}`, comma-separated: the list
 * form (before 1.12) and the dict form differ in the text around the uuid only.
 */
function writeAllocations(out: AsciiWriter, allocations: Candidate['allocations'], texts: ResourcesText, open: string, middle: string): void {
  allocations.forEach((a, i) => {
    if (i > 0) out.text(',');
    out.text(open);
    out.text(a.provider.uuid);
    out.text(middle);
    out.text(texts.of(a.resources));
    out.text('}');
  });
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

/**
 * A summary changes only with its provider's state or root (its `changed` stamp), so the bytes
 * of the shapes that list every class are kept per provider and copied into later answers.
 */
function summaryBytes(node: ProviderNode, p: Presentation): Buffer {
  const hit = p.kept.get(node, 'summary', p.key, node.changed);
  if (hit) return hit;
  const bytes = Buffer.from(`${str(node.uuid)}:${summary(node, p.shape, null)}`, 'latin1');
  p.kept.keep(node, 'summary', p.key, node.changed, bytes);
  return bytes;
}

/** One entry of provider_summaries: the provider's kept bytes where every class is listed, else written for the requested classes. */
function writeSummary(out: AsciiWriter, node: ProviderNode, p: Presentation): void {
  if (p.requested) out.text(`${str(node.uuid)}:${summary(node, p.shape, p.requested)}`);
  else out.bytes(summaryBytes(node, p));
}

const COMMA = 0x2c;

/** A kept tree part's bytes in one shape: its requests and its providers' summaries, each comma-joined. */
interface PartBytes { readonly requests: Buffer; readonly summaries: Buffer }

/** What every request and summary of a whole part writes; kept while the part is (its tree unchanged). */
function partBytes(part: TreePart, p: Presentation): PartBytes {
  const requests = p.kept.get(part, 'part-requests', p.key, part.stamp);
  const summaries = p.kept.get(part, 'part-summaries', p.key, part.stamp);
  if (requests && summaries) return { requests, summaries };
  const out = new AsciiWriter(part.candidates.length * 320 + 64);
  let next = separator(out);
  for (const candidate of part.candidates) {
    next();
    writeRequest(out, candidate, p.shape, p.texts);
  }
  const list = new AsciiWriter(part.members.length * 320 + 64);
  next = separator(list);
  if (part.summarized) {
    for (const node of part.members) {
      next();
      writeSummary(list, node, p);
    }
  }
  // Copied out of each writer's larger buffer: exactly the part's bytes are kept.
  const made = { requests: Buffer.from(out.done()), summaries: Buffer.from(list.done()) };
  p.kept.keep(part, 'part-requests', p.key, part.stamp, made.requests);
  p.kept.keep(part, 'part-summaries', p.key, part.stamp, made.summaries);
  return made;
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
function* presentTrees(trees: readonly TreeSlice[], p: Presentation, out: AsciiWriter): Steps<Buffer> {
  const pauses = new BytePauses(out);
  // Each whole part's bytes looked up once for both lists.
  const slices = trees.map((slice) => ({ slice, whole: slice.part && slice.candidates === slice.part.candidates ? partBytes(slice.part, p) : null }));
  out.text('{"allocation_requests":[');
  yield* writeSlices(out, slices, (whole) => whole.requests, (slice) => slice.candidates,
    (candidate) => writeRequest(out, candidate, p.shape, p.texts), pauses);
  out.text('],"provider_summaries":{');
  yield* writeSlices(out, slices.filter(({ slice }) => summarized(slice)), (whole) => whole.summaries, (slice) => slice.members,
    (node) => writeSummary(out, node, p), pauses);
  out.text('}}');
  return out.done();
}

/**
 * One list of the body over the trees, comma-separated: a tree's kept bytes when it has them, else
 * its items written one by one, with a pause whenever one is due (`pauses` counts across lists).
 */
function* writeSlices<Item>(
  out: AsciiWriter, slices: readonly { slice: TreeSlice; whole: PartBytes | null }[], kept: (whole: PartBytes) => Buffer,
  items: (slice: TreeSlice) => Iterable<Item>, write: (item: Item) => void, pauses: BytePauses,
): Steps<void> {
  const next = separator(out);
  for (const { slice, whole } of slices) {
    if (whole) {
      next();
      out.bytes(kept(whole));
      continue;
    }
    for (const item of items(slice)) {
      next();
      write(item);
      if (pauses.due) yield;
    }
  }
}

/** Bodies larger than this are not kept: a scheduler's answers fit, a whole cloud's unlimited one does not. */
const LARGEST_KEPT_BODY = 4 * 1024 * 1024;

/**
 * The body of GET /allocation_candidates as JSON bytes. Written straight to a buffer because a
 * thousand candidates make about half a megabyte and this is the scheduler's hot path; into one
 * of `reuse`'s reply buffers, which the caller gives back once the reply is sent (a kept body
 * never came from them, so it is never given back).
 */
export function presentCandidates(result: CandidateResult, request: CandidateRequest, version: Version, reuse: AnswerReuse): Buffer {
  return runToEnd(presentSteps(result, request, version, reuse));
}

/**
 * The same, in steps (steps.ts): the API writes a large answer pausing, so it holds no one up.
 * The search gives the same result object while nothing was written (KeptResults): its body is
 * kept from the second presentation on, the first being written into a reused buffer, as every
 * answer between two writes (a scheduler claiming after each) is.
 */
export function* presentSteps(result: CandidateResult, request: CandidateRequest, version: Version, reuse: AnswerReuse): Steps<Buffer> {
  const shape = shapeOf(version);
  const p: Presentation = {
    shape, key: `${shape.dictForm}${shape.mappings}${shape.traits}${shape.tree}${shape.allClasses}`, texts: new ResourcesText(),
    requested: shape.allClasses ? null : new Set(request.groups.flatMap((g) => g.resources.map(([rc]) => rc))), kept: reuse.bytes,
  };
  const kept = reuse.bytes.get(result, 'body', p.key, 0);
  if (kept) {
    // Each reply gives its body back once sent: a kept body in a reused buffer has one more holder.
    reuse.buffers.share(kept);
    return kept;
  }
  if (result.walked && Math.max(result.candidates.length, result.summaries.length) <= LARGEST_WALKED) {
    return yield* presentWalked(result, result.walked, p, reuse);
  }
  const noted = reuse.bytes.noted(result, 'body', p.key, 0);
  if (noted === undefined) {
    reuse.bytes.note(result, 'body', p.key, 0, 'seen once');
    return yield* writeBody(result, p, reuse.buffers);
  }
  // Too large to keep: written into a reused buffer every time.
  if (noted === 'too large') return yield* writeBody(result, p, reuse.buffers);
  const bytes = yield* writeBody(result, p);
  if (bytes.length <= LARGEST_KEPT_BODY) reuse.bytes.keep(result, 'body', p.key, 0, bytes);
  else reuse.bytes.note(result, 'body', p.key, 0, 'too large');
  return bytes;
}

/** A streamed answer of up to this many candidates and summaries keeps its body (at most about LARGEST_KEPT_BODY). */
const LARGEST_WALKED = 8192;

/** Where a walked answer's entries start in its kept body, and the index's clock it was written at. */
interface WalkedLayout {
  readonly requests: EntryStarts;
  readonly summaries: EntryStarts;
  readonly version: number;
}

/** Held weakly by the body: a layout goes when its body does. */
const layouts = new WeakMap<Buffer, WalkedLayout>();

/**
 * A streamed answer's body, kept from its first presentation with where each entry starts, since
 * after the next claim the answer is patched (patch-walk.ts) and the patch's body copies every
 * entry the two share: every request, and the summaries of trees that did not change. Each
 * candidate is a root, and its summaries (its tree's) are one entry, unchanged while its stamp is.
 */
function* presentWalked(result: CandidateResult, walked: Walked, p: Presentation, { bytes: kept, buffers }: AnswerReuse): Steps<Buffer> {
  const base = walked.base?.result;
  const before = base ? kept.get(base, 'body', p.key, 0) : undefined;
  const layout = before && layouts.get(before);
  // One of the earlier body's lists to copy from, where that body and its layout are still kept.
  const earlier = (list: 'requests' | 'summaries', same: (j: number) => boolean): EarlierList | null =>
    before && layout ? { bytes: before, starts: layout[list], from: walked.base!.from, same } : null;
  const { candidates, summaries } = result;
  const { spans } = walked;
  const n = candidates.length;
  const size = before ? before.length + 4096 : n * 640 + 64;
  // Into a reused buffer, as every large answer: a fresh one per claim would have the collector chase external memory.
  const out = new AsciiWriter(size, buffers.take(size));
  const requests = new Int32Array(n + 1);
  const summaryStarts = new Int32Array(n + 1);
  const pauses = new BytePauses(out);
  // Held while copied from, across pauses: let go meanwhile, its memory could be handed to another answer.
  if (before) buffers.share(before);
  try {
    out.text('{"allocation_requests":[');
    yield* writeEntries(out, n, requests, earlier('requests', () => true),
      (i) => writeOneProviderRequest(out, candidates[i] as OneProviderCandidate, p), pauses);
    out.text('],"provider_summaries":{');
    yield* writeEntries(out, n, summaryStarts, earlier('summaries', (j) => (base!.candidates[j] as OneProviderCandidate).provider.stamp <= layout!.version),
      (i) => writeTreeSummaries(out, summaries, spans[i], spans[i + 1], p), pauses);
    out.text('}}');
  } finally {
    if (before) buffers.giveBack(before);
  }
  const bytes = out.done();
  if (base) kept.forget(base);
  layouts.set(bytes, { requests, summaries: summaryStarts, version: walked.version });
  // Held by the reply until it is sent and by the kept body until it is let go.
  buffers.share(bytes);
  kept.keep(result, 'body', p.key, 0, bytes);
  return bytes;
}

/** The summaries from `from` up to `to`, comma-separated: one root's tree. */
function writeTreeSummaries(out: AsciiWriter, summaries: readonly ProviderNode[], from: number, to: number, p: Presentation): void {
  for (let at = from; at < to; at++) {
    if (at > from) out.byte(COMMA);
    writeSummary(out, summaries[at], p);
  }
}

function* writeBody(result: CandidateResult, p: Presentation, buffers?: ReplyBuffers): Steps<Buffer> {
  const size = (result.candidates.length + result.summaries.length) * 320 + 64;
  const out = new AsciiWriter(size, buffers?.take(size));
  if (result.trees) return yield* presentTrees(result.trees, p, out);
  const pauses = new BytePauses(out);
  out.text('{"allocation_requests":[');
  for (const [i, candidate] of result.candidates.entries()) {
    if (i > 0) out.byte(COMMA);
    if (candidate instanceof OneProviderCandidate) writeOneProviderRequest(out, candidate, p);
    else writeRequest(out, candidate, p.shape, p.texts);
    if (pauses.due) yield;
  }
  out.text('],"provider_summaries":{');
  for (const [i, node] of result.summaries.entries()) {
    if (i > 0) out.byte(COMMA);
    writeSummary(out, node, p);
    if (pauses.due) yield;
  }
  out.text('}}');
  return out.done();
}
