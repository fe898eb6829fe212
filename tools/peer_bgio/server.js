'use strict';
// Stock boardgame.io server (Koa + socket.io via koa-socket-2), default
// storage: no `db` option and no FLATFILE_DIR => boardgame.io's InMemory
// storage (process-local Maps; nothing is persisted, nothing is ever deleted).
// The lobby REST API is served on the same port as the socket.io game server.
//
//   PORT=8000 NODE_ENV=production node server.js
//
// Only change from the stock setup: listen on 127.0.0.1 instead of all
// interfaces (koa-socket-2 replaces app.listen with app.server.listen; we
// pass the host through).
//
// tools/peer_bgio (configuration c): PEER_DB_URL=postgres://user@host:port/db
// swaps the InMemory storage for the `bgio-postgres` adapter (Sequelize, one
// "Games" row per match holding its state and whole log, written on every
// move), passed as `db:` to Server() the way its README shows.  Sequelize's
// per-query console logging is turned off (a production setting: it would
// print every SQL statement); everything else is the adapter's default.
const { Server, Origins } = require('boardgame.io/server');
const { OldMaid } = require('./game');

const port = Number(process.env.PORT || 8000);
const host = process.env.HOST || '127.0.0.1';

let db; // undefined: boardgame.io's default InMemory storage
if (process.env.PEER_DB_URL) {
  const { PostgresStore } = require('bgio-postgres');
  db = new PostgresStore(process.env.PEER_DB_URL, { logging: false });
}

const server = Server({
  games: [OldMaid],
  origins: [Origins.LOCALHOST],
  db,
});

const app = server.app;
app.listen = function listen(p, cb) {
  return app.server.listen(p, host, cb);
};

if (process.env.FLATFILE_DIR) {
  console.error('FLATFILE_DIR is set: this benchmark expects the default InMemory storage');
  process.exit(2);
}

server.run(port, () => {
  console.log(
    `READY pid=${process.pid} host=${host} port=${port} db=${server.db.constructor.name} node=${process.version}`
  );
});

function shutdown(sig) {
  console.log(`stopping on ${sig}`);
  process.exit(0);
}
process.on('SIGTERM', () => shutdown('SIGTERM'));
process.on('SIGINT', () => shutdown('SIGINT'));
