// The client against a running `tutor-memory serve`, whose base URL is TUTOR_MEMORY_URL
// (tests/integration/test_typescript_client.py starts one and sets it). Each test has a pair of
// its own, so the tests run against any server, as often as wanted.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { describe, test } from "node:test";

import {
  createTutorMemory,
  type EpisodeRequest,
  OPERATIONS,
  PROBLEM_TYPE,
  TutorMemoryProblem,
} from "tutor-memory-client";

const baseUrl = process.env.TUTOR_MEMORY_URL ?? "";
const skip = baseUrl ? false : "set TUTOR_MEMORY_URL to a running `tutor-memory serve`";
const tm = createTutorMemory({ baseUrl });

/** A pair no other test (or earlier run) has written to. */
function newPair(subject = "chemistry"): [string, string] {
  return [`ts-${randomUUID().slice(0, 8)}`, subject];
}

/** The problem a call was refused with (fails if it was not refused with one). */
async function problemOf(call: Promise<unknown>): Promise<TutorMemoryProblem> {
  try {
    await call;
  } catch (error) {
    assert.ok(error instanceof TutorMemoryProblem, `not a TutorMemoryProblem: ${String(error)}`);
    return error;
  }
  assert.fail("the call was not refused");
}

test("every operation of the document has a method", () => {
  for (const [operation, method] of Object.entries(OPERATIONS)) {
    if (method !== null) assert.equal(typeof tm[method], "function", operation);
  }
  assert.ok(Object.keys(OPERATIONS).length >= 20);
});

test("a key or a token goes as the bearer; both at once are refused", async () => {
  const sent: string[] = [];
  const recording = async (request: Request) => {
    sent.push(request.headers.get("authorization") ?? "");
    return new Response("[]", { status: 200, headers: { "Content-Type": "application/json" } });
  };
  const base = { baseUrl: "http://127.0.0.1:9", fetch: recording };
  await createTutorMemory({ ...base, token: "h.p.s" }).beliefs("s1", "chemistry");
  await createTutorMemory({ ...base, apiKey: "tm_1_x" }).beliefs("s1", "chemistry");
  assert.deepEqual(sent, ["Bearer h.p.s", "Bearer tm_1_x"]);
  assert.throws(() => createTutorMemory({ ...base, apiKey: "tm_1_x", token: "h.p.s" }), TypeError);
});

test("an erasure a worker goes on with (202) is an answer naming what is pending", async () => {
  const accepted = {
    scope: "student", reason: "left school", at: "2026-09-04T15:00:00Z",
    erased: { "s1/biology": [1, 2, 3], "s1/history": [] }, derived: {},
    episodes_erased: 3, objects_deleted: 0, finished: false,
    pending: ["s1/biology", "s1/history"],
  };
  const answering = async () =>
    new Response(JSON.stringify(accepted), {
      status: 202, headers: { "Content-Type": "application/json" },
    });
  const client = createTutorMemory({ baseUrl: "http://127.0.0.1:9", fetch: answering });
  const erased = await client.eraseStudent("s1", { reason: "left school" });
  assert.equal(erased.finished, false);
  assert.deepEqual(erased.pending, ["s1/biology", "s1/history"]);
});

describe("the TypeScript client against serve", { skip }, () => {
  test("records a question (in Urdu) and an answer; the turn's block mentions it", async () => {
    const [student, subject] = newPair("biology");
    const question = "خلیہ کیا ہے؟"; // ur: "What is a cell?"
    const asked = await tm.record(student, subject, { kind: "question", text: question });
    assert.equal(asked.kind, "question");
    assert.equal(asked.created, true);
    assert.equal(asked.summary, question);

    const turn = await tm.turn(student, subject, { question });
    assert.ok(turn.block.includes(question), turn.block);
    assert.ok(turn.memory_ids.includes(asked.id), JSON.stringify(turn.memory_ids));
    assert.equal(typeof turn.tokens, "number");

    const answer = await tm.record(student, subject, {
      kind: "answer",
      text: "خلیہ زندگی کی بنیادی اکائی ہے۔",
      recalled_ids: turn.memory_ids,
    });
    assert.equal(answer.kind, "answer");
    assert.equal(answer.seq, asked.seq + 1);
    const sources = await tm.sources(student, subject, answer.id);
    assert.deepEqual(
      sources.map((s) => s.id),
      [asked.id],
    );
    const stance = await tm.setStance(student, subject, answer.id, "answered");
    assert.equal(stance.stance, "answered");
  });

  test("a check moves a belief, found by the name users see", async () => {
    const [student, subject] = newPair();
    const checked = await tm.record(student, subject, {
      kind: "check",
      text: "Asked where lemon juice sits on the pH scale",
      evidence: { kind: "check", topic: "pH scale", verdict: "wrong" },
    });
    assert.ok(checked.belief, "the check moved no belief");
    await tm.record(student, subject, {
      kind: "check",
      text: "سُئل عن الخلية", // ar
      evidence: { kind: "check", topic: "الخلية", verdict: "right" },
    });

    const beliefs = await tm.beliefs(student, subject);
    assert.deepEqual(beliefs.map((b) => b.concept).sort(), ["pH scale", "الخلية"].sort());
    for (const belief of beliefs) {
      assert.ok(belief.evidence_ids.length > 0);
      assert.equal(typeof belief.confidence, "number");
    }

    // "pH scale" travels as pH%20scale, "الخلية" percent-encoded as UTF-8.
    const ph = await tm.beliefHistory(student, subject, "pH scale");
    assert.deepEqual(new Set(ph.beliefs.map((b) => b.concept_key)), new Set(["ph scale"]));
    assert.equal(ph.beliefs[0]?.concept, "pH scale");
    assert.equal(ph.next, null);
    const cell = await tm.beliefHistory(student, subject, "الخلية", { limit: 1 });
    assert.equal(cell.beliefs[0]?.concept, "الخلية");

    const missing = await problemOf(tm.beliefHistory(student, subject, "pH scales chart"));
    assert.equal(missing.status, 404);
    assert.equal(missing.slug, "not-found");
  });

  test("report, export, the episodes and the chain describe what was recorded", async () => {
    const [student, subject] = newPair();
    await tm.record(student, subject, { kind: "question", text: "What is the pH scale?" });
    await tm.record(student, subject, {
      kind: "check",
      text: "Asked for the pH of pure water",
      evidence: { kind: "check", topic: "pH scale", verdict: "right" },
    });

    const report = await tm.report(student, subject, { history: "pH scale" });
    assert.deepEqual(report.pair, { student_id: student, subject_id: subject });
    assert.equal(report.episodes.total, 2);
    assert.equal(report.checks.recorded, 1);
    assert.equal(report.checks.right, 1);
    assert.equal(report.history?.concept_key, "ph scale");
    assert.deepEqual(
      report.beliefs.map((b) => b.concept),
      ["pH scale"],
    );

    const exported = await tm.exportPair(student, subject);
    assert.equal(exported.history.length, 2);
    assert.deepEqual(
      exported.history.map((line) => line.kind),
      ["question", "check"],
    );
    assert.ok(exported.manifest && "format" in exported.manifest, JSON.stringify(exported));
    assert.equal(exported.next, null);
    const everything = await tm.exportStudent(student);
    assert.equal(everything.history.length, 2);
    // a page at a time: the manifest first, the lines in order
    const page = await tm.exportPair(student, subject, { limit: 1 });
    assert.ok(page.manifest && page.next, JSON.stringify(page));
    const last = await tm.exportPair(student, subject, { limit: 1, next: page.next });
    assert.equal(last.manifest, null);
    assert.equal(last.next, null);
    assert.deepEqual([...page.history, ...last.history], exported.history);
    const refused = await problemOf(tm.exportPair(student, subject, { next: "not-a-cursor" }));
    assert.equal(refused.status, 422);
    assert.ok(refused.fields.some((f) => f.field.endsWith("next")), JSON.stringify(refused));

    const first = await tm.episodes(student, subject, { limit: 1 });
    assert.deepEqual(
      first.episodes.map((line) => line.kind),
      ["question"],
    );
    assert.ok(first.next, "no next page");
    const second = await tm.episodes(student, subject, { limit: 1, next: first.next });
    assert.deepEqual(
      second.episodes.map((line) => line.kind),
      ["check"],
    );
    const rest = second.next ? await tm.episodes(student, subject, { next: second.next }) : null;
    assert.deepEqual(rest?.episodes ?? [], []);

    const chain = await tm.verifyChain(student, subject);
    assert.equal(chain.intact, true);
    assert.equal(chain.episodes, 2);
  });

  test("a retry with the same Idempotency-Key: 201, then 200 with created false", async () => {
    const [student, subject] = newPair();
    const seen: { status: number; key: string | null }[] = [];
    const watched = createTutorMemory({
      baseUrl,
      fetch: async (request: Request) => {
        const response = await fetch(request);
        seen.push({ status: response.status, key: request.headers.get("idempotency-key") });
        return response;
      },
    });
    const episode: EpisodeRequest = { kind: "question", text: "¿Qué es la ósmosis?" };
    const first = await watched.record(student, subject, episode, { idempotencyKey: "msg-1" });
    const again = await watched.record(student, subject, episode, { idempotencyKey: "msg-1" });
    assert.deepEqual(seen, [
      { status: 201, key: "msg-1" },
      { status: 200, key: "msg-1" },
    ]);
    assert.equal(first.created, true);
    assert.equal(again.created, false);
    assert.equal(again.id, first.id);

    const reused = await problemOf(
      watched.record(student, subject, { ...episode, text: "another" }, {
        idempotencyKey: "msg-1",
      }),
    );
    assert.equal(reused.status, 409);
    assert.equal(reused.slug, "idempotency-key-reused");
  });

  test("a refused request is a typed problem naming the field", async () => {
    const [student, subject] = newPair();
    const noVerdict = {
      kind: "check",
      text: "a check without its verdict",
      evidence: { kind: "check", topic: "pH scale" },
    } as const;
    // @ts-expect-error -- the generated types refuse it too: a check's verdict is required
    const refused: EpisodeRequest = noVerdict;
    const problem = await problemOf(tm.record(student, subject, refused));
    assert.equal(problem.status, 422);
    assert.equal(problem.type, `${PROBLEM_TYPE}invalid-request`);
    assert.equal(problem.slug, "invalid-request");
    assert.deepEqual(problem.fields, [
      { field: "body.evidence.verdict", problem: "Field required" },
    ]);
    assert.match(problem.detail, /verdict/);
    assert.equal(problem.instance, `/pairs/${student}/${subject}/episodes`);
    assert.ok(problem.correlationId, "no correlation id");
    assert.match(problem.message, /^422 invalid-request: /);
  });

  test("an unknown pair is a typed 404", async () => {
    const [student, subject] = newPair();
    const problem = await problemOf(tm.beliefs(student, subject));
    assert.equal(problem.status, 404);
    assert.equal(problem.slug, "not-found");
    assert.match(problem.detail, new RegExp(student));
    assert.deepEqual(problem.fields, []);
  });

  test("a network failure is thrown as fetch threw it, not as a problem", async () => {
    const unreachable = createTutorMemory({ baseUrl: "http://127.0.0.1:9" });
    await assert.rejects(unreachable.beliefs("s1", "chemistry"), (error: unknown) => {
      assert.ok(!(error instanceof TutorMemoryProblem));
      assert.ok(error instanceof TypeError, String(error));
      return true;
    });
  });

  test("recall, the map, the prompt, the inspector and a re-derivation answer typed", async () => {
    const [student, subject] = newPair();
    await tm.record(student, subject, { kind: "question", text: "What does an indicator show?" });
    const recall = await tm.recall(student, subject, "indicator");
    assert.equal(recall.question, "indicator");
    assert.equal(recall.items[0]?.summary, "What does an indicator show?");

    const cmap = await tm.conceptMap(student, subject);
    assert.equal(typeof cmap, "object");

    const prompt = await tm.prompt(student, subject, {
      question: "And what about litmus?",
      system: "You are a chemistry tutor.",
    });
    assert.ok(prompt.prompt.includes("You are a chemistry tutor."));
    assert.ok(prompt.sections.length > 0);

    const page = await tm.inspect(student, subject);
    assert.match(page, /<html/i);

    const rederived = await tm.rederiveBeliefs(student, subject, { reason: "a test" });
    assert.equal(typeof rederived.generation, "number");
  });

  test("erasePair erases the pair's episodes, keeping the record of why", async () => {
    const [student, subject] = newPair();
    const acid = "ما هو الحمض؟"; // ar: "What is an acid?"
    const one = await tm.record(student, subject, { kind: "question", text: acid });
    await tm.record(student, subject, { kind: "question", text: "What is a base?" });
    const erased = await tm.erasePair(student, subject, { reason: "the student asked" });
    assert.equal(erased.scope, "pair");
    assert.equal(erased.reason, "the student asked");
    assert.equal(erased.episodes_erased, 2);
    assert.deepEqual(erased.erased[`${student}/${subject}`], [one.seq, one.seq + 1]);
    assert.equal(erased.finished, true); // serve waits for all of it: never 202
    assert.deepEqual(erased.pending, []);

    const report = await tm.report(student, subject);
    assert.equal(report.erasures.erased, 2);
    assert.equal(report.erasures.requests[0]?.requested_by, "api");
    const exported = await tm.exportPair(student, subject);
    assert.ok(!JSON.stringify(exported.history).includes(acid), "an erased body was exported");

    const again = await problemOf(tm.erasePair(student, subject, { reason: "" }));
    assert.equal(again.status, 422);
    assert.equal(again.fields[0]?.field, "query.reason");
  });
});
