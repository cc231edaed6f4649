// server.mjs - a boardgame.io server for the benchmark: its defaults (the
// in-memory storage, the socket.io transport, the lobby API on the same
// port), our tic-tac-toe. PORT (0: any free port). With BGIO_PG_DATABASE
// set, its PostgreSQL storage adapter (bgio-postgres, Sequelize) on that
// database, reached through BGIO_PG_HOST (a host, or the directory of a
// Unix socket), BGIO_PG_PORT and BGIO_PG_USER: the durable set-up a
// boardgame.io user would deploy. Prints one JSON line
// {"event":"listening","port":N} on stdout once it accepts connections.
import { createRequire } from 'node:module';
import { TicTacToe } from './tictactoe.mjs';

const require = createRequire(import.meta.url);
const { Server } = require('boardgame.io/server');

let db;
if (process.env.BGIO_PG_DATABASE) {
  const { PostgresStore } = require('bgio-postgres');
  db = new PostgresStore({
    database: process.env.BGIO_PG_DATABASE,
    username: process.env.BGIO_PG_USER || 'postgres',
    host: process.env.BGIO_PG_HOST,
    port: Number(process.env.BGIO_PG_PORT || 5432),
    logging: false,
  });
}

const server = Server({ games: [TicTacToe], origins: [], ...(db ? { db } : {}) });
const { appServer } = await server.run(Number(process.env.PORT || 0));
console.log(JSON.stringify({ event: 'listening', port: appServer.address().port, pid: process.pid }));
const stop = () => {
  server.kill({ appServer });
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
