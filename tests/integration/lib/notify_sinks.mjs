// notify_sinks.mjs - local receivers for notification tests: a minimal SMTP
// server (enough of RFC 5321 for libcurl) and a webhook receiver, both on
// loopback. Used by notifications.test.mjs and the canary.
import net from 'node:net';
import httpServer from 'node:http';

// A minimal SMTP server: enough of RFC 5321 for libcurl. mails: [{from, to, data}].
export function smtpSink() {
  const sink = { mails: [], sockets: new Set() };
  const srv = net.createServer((sock) => {
    sink.sockets.add(sock);
    sock.on('close', () => sink.sockets.delete(sock));
    sock.on('error', () => {});
    let buf = '',
      mail = null,
      inData = false;
    sock.write('220 sink ESMTP\r\n');
    sock.on('data', (chunk) => {
      buf += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buf.indexOf('\r\n.\r\n');
          if (end < 0) return;
          mail.data = buf.slice(0, end).replace(/^\.\./gm, '.');
          buf = buf.slice(end + 5);
          inData = false;
          sink.mails.push(mail);
          sock.write('250 queued\r\n');
          continue;
        }
        const i = buf.indexOf('\r\n');
        if (i < 0) return;
        const line = buf.slice(0, i);
        buf = buf.slice(i + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') sock.write('250 sink\r\n');
        else if (verb === 'MAIL') {
          mail = { from: line, to: [], data: '' };
          sock.write('250 ok\r\n');
        } else if (verb === 'RCPT') {
          mail.to.push(line.replace(/^RCPT TO:\s*<?([^>]*)>?.*$/i, '$1'));
          sock.write('250 ok\r\n');
        } else if (verb === 'DATA') {
          inData = true;
          sock.write('354 go on\r\n');
        } else if (verb === 'QUIT') {
          sock.end('221 bye\r\n');
          return;
        } else sock.write('250 ok\r\n');
      }
    });
  });
  sink.listen = (port = 0) =>
    new Promise((r) =>
      srv.listen(port, '127.0.0.1', () => {
        sink.port = srv.address().port;
        r();
      }),
    );
  sink.close = () =>
    new Promise((r) => {
      for (const s of sink.sockets) s.destroy();
      srv.close(() => r());
    });
  return sink;
}

// A webhook receiver: posts: [{url, headers, body, text}]; down = true answers 503.
export function hookSink() {
  const sink = { posts: [], down: false };
  const srv = httpServer.createServer((req, res) => {
    let text = '';
    req.on('data', (c) => (text += c));
    req.on('end', () => {
      if (sink.down) {
        res.writeHead(503);
        res.end();
        return;
      }
      sink.posts.push({ url: req.url, headers: req.headers, text, body: JSON.parse(text) });
      res.writeHead(204);
      res.end();
    });
  });
  sink.listen = () =>
    new Promise((r) =>
      srv.listen(0, '127.0.0.1', () => {
        sink.port = srv.address().port;
        r();
      }),
    );
  sink.close = () =>
    new Promise((r) => {
      srv.closeAllConnections?.();
      srv.close(() => r());
    });
  return sink;
}
