// server.mjs - a boardgame.io server for the benchmark: its defaults (the
// in-memory storage, the socket.io transport, the lobby API on the same
// port), our tic-tac-toe. PORT (0: any free port). Prints one JSON line
// {"event":"listening","port":N} on stdout once it accepts connections.
import { createRequire } from 'node:module';
import { TicTacToe } from './tictactoe.mjs';

const { Server } = createRequire(import.meta.url)('boardgame.io/server');

const server = Server({ games: [TicTacToe], origins: [] });
const { appServer } = await server.run(Number(process.env.PORT || 0));
console.log(JSON.stringify({ event: 'listening', port: appServer.address().port, pid: process.pid }));
const stop = () => {
  server.kill({ appServer });
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
