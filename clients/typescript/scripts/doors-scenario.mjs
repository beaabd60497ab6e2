// The doors suite's scenario (tests/integration/test_doors_agree.py) through this client: every
// operation in the same order as the Python library calls them, printed as one JSON object the
// test compares with the library's answers. Usage: node scripts/doors-scenario.mjs BASE_URL
import { createTutorMemory, TutorMemoryProblem } from "../dist/index.js";

const memory = createTutorMemory({ baseUrl: process.argv[2] });
const AT = "2026-03-02T09:00:00+00:00";
const LATER = "2026-03-02T10:00:00+00:00";
const ERRORS = { "not-found": "NotFoundError", forbidden: "ForbiddenError" };

async function outcome(call) {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof TutorMemoryProblem)) throw error;
    return { error: ERRORS[error.slug] ?? error.slug, message: error.detail };
  }
}

// Every page of an export put together, as the library's export() gathers them.
async function wholeExport(exportPage) {
  const first = await exportPage({ limit: 2 });
  const whole = { manifest: first.manifest, history: [...first.history], files: { ...first.files } };
  for (let next = first.next; next !== null; ) {
    const page = await exportPage({ limit: 2, next });
    whole.history.push(...page.history);
    Object.assign(whole.files, page.files);
    next = page.next;
  }
  return whole;
}

const [s, t] = ["alice", "biology"];
const seen = {};
seen["unknown pair"] = await outcome(() => memory.turn(s, t, { question: "hi" }));
seen["question"] = await outcome(() =>
  memory.record(s, t, { kind: "question", text: "What is osmosis?", ref: "m1", at: AT }),
);
seen["check"] = await outcome(() =>
  memory.record(s, t, {
    kind: "check",
    text: "Explain osmosis in one line",
    evidence: { topic: "osmosis", verdict: "wrong" },
    at: AT,
  }),
);
const turn = await memory.turn(s, t, { question: "what did I get wrong?", at: LATER });
delete turn.timings_ms;
seen["turn"] = turn;
const placed = await memory.prompt(s, t, {
  question: "what did I get wrong?",
  system: "You are a tutor.",
  at: LATER,
});
delete placed.timings_ms;
seen["prompt"] = placed;
const answer = await memory.record(s, t, {
  kind: "answer",
  text: "Osmosis moves water across a membrane.",
  recalled_ids: turn.memory_ids,
  at: LATER,
});
seen["answer"] = answer;
seen["sources"] = await outcome(() => memory.sources(s, t, answer.id));
seen["stance"] = await outcome(() => memory.setStance(s, t, answer.id, "partial"));
seen["correct"] = await outcome(() =>
  memory.correct(s, t, seen["check"].id, {
    field: "verdict",
    value: "right",
    reason: "marked wrong by mistake",
    at: LATER,
  }),
);
seen["beliefs"] = await outcome(() => memory.beliefs(s, t));
seen["belief history"] = await outcome(() => memory.beliefHistory(s, t, "Osmosis"));
seen["rederive"] = await outcome(() =>
  memory.rederiveBeliefs(s, t, { reason: "rules changed", force: true }),
);
const held = await memory.beliefHistory(s, t, "Osmosis", { limit: 1 });
seen["belief pages"] = [
  held,
  await memory.beliefHistory(s, t, "Osmosis", { limit: 10, next: held.next }),
];
const first = await memory.episodes(s, t, { limit: 2 });
seen["episodes"] = [first, await memory.episodes(s, t, { next: first.next })];
seen["report"] = await outcome(() => memory.report(s, t, { history: "osmosis" }));
seen["recall"] = await outcome(() => memory.recall(s, t, "osmosis", { at: LATER }));
seen["no file"] = await outcome(() => memory.removeFile(s, t, "f-none"));
const page = await memory.exportPair(s, t, { limit: 2 });
seen["export pages"] = [page, await memory.exportPair(s, t, { limit: 2, next: page.next })];
seen["export"] = await outcome(() => wholeExport((paging) => memory.exportPair(s, t, paging)));
seen["erase episode"] = await outcome(() =>
  memory.eraseEpisode(s, t, first.episodes[0].id, { reason: "asked", requestedBy: "library" }),
);
seen["verify"] = await outcome(() => memory.verifyChain(s, t));
seen["erase pair"] = await outcome(() =>
  memory.erasePair(s, t, { reason: "left", requestedBy: "library" }),
);
seen["export student"] = await outcome(() =>
  wholeExport((paging) => memory.exportStudent(s, paging)),
);
seen["erase student"] = await outcome(() =>
  memory.eraseStudent(s, { reason: "left the school", requestedBy: "library" }),
);
seen["set class"] = await outcome(() =>
  memory.setClass("7a", { teachers: ["t-1"], students: ["bob"] }),
);
seen["get class"] = await outcome(() => memory.getClass("7a"));
const SYLLABUS = "# Cells\n\n## Osmosis\n\nOsmosis is the movement of water across a membrane.\n";
seen["class file"] = await outcome(() =>
  memory.ingestClassFile("7a", t, "syllabus.md", {
    name: "syllabus.md",
    content: Buffer.from(SYLLABUS, "utf8").toString("base64"),
  }),
);
process.stdout.write(JSON.stringify(seen));
