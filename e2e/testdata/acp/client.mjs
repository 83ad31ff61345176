// A small ACP client on the TypeScript SDK (@agentclientprotocol/sdk 2.4),
// driving `fawn acp` as an editor would. TestACPTypeScriptClient runs it:
//
//   node client.mjs SDK_DIR PROJECT -- FAWN ARGS...
//
// SDK_DIR is the npm prefix the SDK is installed under. It prints one JSON
// object: what it saw, for the Go test to check.
//
// First connection, as an editor that offers fs/* and terminal/*:
// initialize, session/new, a prompt whose turn views and edits a file
// through fs/read_text_file and fs/write_text_file and runs a command
// through terminal/* (each permission request answered "allow once"),
// then a second prompt cancelled while the model streams. Its buffers are
// a map over the disk, seeded with the unsaved buffers in
// $ACP_CLIENT_BUFFERS (JSON: path relative to PROJECT → text); a write
// lands in the buffer only, as in an editor that has not saved yet. Its
// terminals run commands with child_process. Second connection, a client
// that offers neither: session/load of the same session, its replay
// recorded.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { relative, resolve } from "node:path";
import { Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";

const [sdkDir, project, sep, fawn, ...fawnArgs] = process.argv.slice(2);
if (sep !== "--" || !fawn) {
  console.error("usage: node client.mjs SDK_DIR PROJECT -- FAWN ARGS...");
  process.exit(2);
}
const require = createRequire(sdkDir + "/package.json");
const acp = await import(pathToFileURL(require.resolve("@agentclientprotocol/sdk")).href);
const { client, methods, ndJsonStream } = acp;

// The editor's buffers and terminals, and what fawn asked of them.
const buffers = new Map(Object.entries(JSON.parse(process.env.ACP_CLIENT_BUFFERS || "{}")).map(([p, t]) => [resolve(project, p), t]));
const fsCalls = { reads: [], writes: [] };
const terminals = new Map();
const termCalls = { created: [], released: [], killed: [] };

// offer makes app the editor: fs/* on the buffers, terminal/* with
// child_process.
function offer(app) {
  return app
    .onRequest(methods.client.fs.readTextFile, ({ params }) => {
      fsCalls.reads.push(relative(project, params.path));
      if (buffers.has(params.path)) return { content: buffers.get(params.path) };
      return { content: readFileSync(params.path, "utf8") };
    })
    .onRequest(methods.client.fs.writeTextFile, ({ params }) => {
      fsCalls.writes.push(relative(project, params.path));
      buffers.set(params.path, params.content);
      return {};
    })
    .onRequest(methods.client.terminal.create, ({ params }) => {
      const id = `term-${terminals.size + 1}`;
      termCalls.created.push({ id, command: params.command, args: params.args, cwd: params.cwd, env: params.env });
      const env = { ...process.env };
      for (const v of params.env ?? []) env[v.name] = v.value;
      const proc = spawn(params.command, params.args ?? [], { cwd: params.cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
      const t = { proc, output: "", exit: null };
      proc.stdout.on("data", (d) => (t.output += d));
      proc.stderr.on("data", (d) => (t.output += d));
      t.exited = new Promise((res) => proc.once("close", (code, signal) => res((t.exit = { exitCode: code, signal }))));
      terminals.set(id, t);
      return { terminalId: id };
    })
    .onRequest(methods.client.terminal.output, ({ params }) => {
      const t = terminals.get(params.terminalId);
      return { output: t.output, truncated: false, ...(t.exit ? { exitStatus: t.exit } : {}) };
    })
    .onRequest(methods.client.terminal.waitForExit, async ({ params }) => terminals.get(params.terminalId).exited)
    .onRequest(methods.client.terminal.kill, ({ params }) => {
      termCalls.killed.push(params.terminalId);
      stop(terminals.get(params.terminalId));
      return {};
    })
    .onRequest(methods.client.terminal.release, ({ params }) => {
      termCalls.released.push(params.terminalId);
      stop(terminals.get(params.terminalId));
      return {};
    });
}

function stop(t) {
  if (t && !t.exit) {
    try {
      process.kill(-t.proc.pid, "SIGKILL");
    } catch {}
  }
}

// connection runs op against a fresh `fawn acp`, recording every update;
// editor: the client offers fs/* and terminal/*.
async function connection(editor, op) {
  const child = spawn(fawn, fawnArgs, { stdio: ["pipe", "pipe", "inherit"] });
  const updates = [];
  const asks = [];
  let onUpdate = () => {};
  let app = client({ name: "fawn-test-client" })
    .onNotification(methods.client.session.update, ({ params }) => {
      updates.push(params);
      onUpdate(params);
    })
    .onRequest(methods.client.session.requestPermission, ({ params }) => {
      asks.push(params);
      const once = params.options.find((o) => o.kind === "allow_once");
      return { outcome: { outcome: "selected", optionId: once.optionId } };
    });
  if (editor) app = offer(app);
  const stream = ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));
  try {
    return await app.connectWith(stream, (ctx) => op(ctx, { updates, asks, setOnUpdate: (f) => (onUpdate = f) }));
  } finally {
    child.stdin.end();
    await new Promise((resolve) => child.once("exit", resolve));
  }
}

const out = {};
const first = await connection(true, async (ctx, seen) => {
  const init = await ctx.request(methods.agent.initialize, {
    protocolVersion: 1,
    clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: true },
  });
  out.protocolVersion = init.protocolVersion;
  out.loadSession = init.agentCapabilities?.loadSession === true;
  out.images = init.agentCapabilities?.promptCapabilities?.image === true;
  const { sessionId, modes } = await ctx.request(methods.agent.session.new, { cwd: project, mcpServers: [] });
  out.sessionId = sessionId;
  out.mode = modes?.currentModeId;
  const r1 = await ctx.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "edit the notes and run it" }] });
  out.stop1 = r1.stopReason;
  out.asks = seen.asks.map((a) => a.toolCall.toolCallId);
  out.turn1 = seen.updates.map((u) => u.update);

  // The second turn streams slowly; it is cancelled once text arrives.
  const n = seen.updates.length;
  let cancelled = false;
  seen.setOnUpdate((u) => {
    if (!cancelled && u.update.sessionUpdate === "agent_message_chunk") {
      cancelled = true;
      ctx.notify(methods.agent.session.cancel, { sessionId });
    }
  });
  const r2 = await ctx.request(methods.agent.session.prompt, { sessionId, prompt: [{ type: "text", text: "tell me a long story" }] });
  out.stop2 = r2.stopReason;
  out.turn2 = seen.updates.slice(n).map((u) => u.update);
  return sessionId;
});

await connection(false, async (ctx, seen) => {
  await ctx.request(methods.agent.initialize, { protocolVersion: 1, clientCapabilities: {} });
  await ctx.request(methods.agent.session.load, { sessionId: first, cwd: project, mcpServers: [] });
  out.replay = seen.updates.map((u) => u.update);
});

out.fs = fsCalls;
out.terminals = termCalls;
out.buffers = Object.fromEntries([...buffers].map(([p, t]) => [relative(project, p), t]));
console.log(JSON.stringify(out));
