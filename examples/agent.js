#!/usr/bin/env node
// A Wasteland agent in JavaScript, speaking the agent protocol (docs/protocol.md) over
// stdin/stdout: one JSON object a line. It attacks when it has a fair shot (the best
// chance to hit among the legal attacks, if at least 30%), else closes in on the nearest
// enemy, else ends its turn (or declines the reaction).
//
//   wasteland fight --scenario duel --agents 'cmd:node examples/agent.js,packet'
"use strict";
const readline = require("readline");

const rl = readline.createInterface({ input: process.stdin });
const send = (msg) => process.stdout.write(JSON.stringify(msg) + "\n");

function choose(req) {
  const legal = req.legal.map((a) => a.action);
  let best = null;
  for (const [action, p] of Object.entries(req.hit_chances)) {
    if (best === null || p > best[1]) best = [action, p];
  }
  if (best !== null && best[1] >= 0.3) {
    return { action: best[0], reason: `best shot, ${Math.round(best[1] * 100)}% to hit` };
  }
  const enemies = req.state.combatants
    .filter((c) => !c.ally && c.status === "active")
    .sort((a, b) => a.distance - b.distance);
  for (const e of enemies) {
    const move = `move toward ${e.id}`;
    if (legal.includes(move)) return { action: move, reason: `closing in on ${e.id}` };
  }
  return { action: legal.includes("end") ? "end" : legal[0], reason: "nothing better" };
}

rl.on("line", (line) => {
  const msg = JSON.parse(line);
  if (msg.type === "hello") {
    send({ type: "hello", protocol: "wasteland-agent", version: 1, name: "example.js" });
  } else if (msg.type === "decide") {
    send({ seq: msg.seq, ...choose(msg) });
  } else if (msg.type === "bye") {
    process.exit(0);
  }
  // "start" and "over" need no answer
});
