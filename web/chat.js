// chat.js - table talk beside every game's table, whatever the ruleset: a
// "Talk" button with the unread count opens a panel with a tab for the
// public channel and one per private channel of your seat (each with its
// unread count), a way to start a private channel with other players, the
// messages of the chosen tab (older ones on demand) and a box to write in.
// Channels and pages come from GET /api/v1/games/{id}/channels[...]; new
// messages arrive over the WebSocket as {"type":"chat"} (ws.js onChat) and
// a tab read while open moves your read mark (PUT .../read). Spectators
// read the public channel only (polled, since a game with a spectator delay
// sends them no live chat). Keyboard: arrows move between tabs, Enter
// sends, Shift+Enter starts a new line, Escape closes the panel.

import { request } from './api.js';
import { h, render, announce, toast } from './ui.js';

const MAX_CHARS = 2000;
const enc = encodeURIComponent;

export function chatPanel(c) {
  return new ChatPanel(c);
}

class ChatPanel {
  constructor(c) {
    this.c = c; // the game controller (id, meta, seatName, ctx.live)
    this.base = `/api/v1/games/${enc(c.id)}/channels`;
    this.channels = new Map(); // id -> {id, kind, seats, last_seq, read, unread, messages, loaded, more}
    this.active = 0;
    this.open = false;
    this.timers = [];
    this.build();
    document.body.append(this.el);
    this.unchat = c.ctx.live.onChat((m) => m.game === c.id && this.onMessage(m));
    this.unstatus = c.ctx.live.onStatus((s) => s === 'open' && this.refresh());
    // Spectators get no live chat in a game with a delay: look now and then.
    this.timers.push(setInterval(() => this.spectator() && this.refresh(), 15000));
    this.refresh();
  }

  spectator() {
    const you = this.c.meta && this.c.meta.you;
    return you === null || you === undefined;
  }

  build() {
    this.badge = h('span.chat-badge', { 'aria-hidden': 'true' });
    this.toggle = h(
      'button.chat-toggle',
      {
        type: 'button',
        'aria-expanded': 'false',
        'aria-controls': 'chat-panel',
        onclick: () => this.setOpen(!this.open),
      },
      'Talk',
      this.badge,
    );
    this.tabs = h('div.chat-tabs', {
      role: 'tablist',
      'aria-label': 'Channels',
      onkeydown: (e) => this.tabKey(e),
    });
    this.starter = h('div.chat-start');
    this.list = h('div.chat-list', {
      role: 'log',
      'aria-live': 'polite',
      id: 'chat-log',
      tabindex: '0',
      'data-scroll': 'chat',
    });
    this.text = h('textarea.chat-text', {
      rows: '2',
      maxlength: String(MAX_CHARS),
      'aria-label': 'Message',
      placeholder: 'Write to this channel…',
      onkeydown: (e) => this.textKey(e),
      oninput: () => this.count(),
    });
    this.counter = h('span.chat-count.muted', { 'aria-live': 'off' });
    this.form = h(
      'form.chat-form',
      {
        onsubmit: (e) => {
          e.preventDefault();
          this.send();
        },
      },
      this.text,
      h('div.chat-row', this.counter, h('button.primary', { type: 'submit' }, 'Send')),
    );
    this.note = h('p.chat-note.muted');
    this.panel = h(
      'section.chat-panel',
      {
        id: 'chat-panel',
        'aria-label': 'Table talk',
        hidden: true,
        onkeydown: (e) => e.key === 'Escape' && this.setOpen(false, true),
      },
      h(
        'header.chat-head',
        h('h2', 'Table talk'),
        h(
          'button.chat-close',
          {
            type: 'button',
            'aria-label': 'Close table talk',
            onclick: () => this.setOpen(false, true),
          },
          '×',
        ),
      ),
      this.tabs,
      this.starter,
      this.list,
      this.note,
      this.form,
    );
    this.el = h('div.chat', this.toggle, this.panel);
  }

  setOpen(open, refocus = false) {
    this.open = open;
    this.panel.hidden = !open;
    this.toggle.setAttribute('aria-expanded', String(open));
    this.el.classList.toggle('chat-is-open', open);
    if (open) {
      this.show(this.active);
      const tab = this.tabs.querySelector('[aria-selected="true"]');
      (this.spectator() ? tab : this.text)?.focus();
    } else if (refocus) {
      this.toggle.focus();
    }
  }

  async refresh() {
    try {
      const r = await request('GET', this.base);
      for (const ch of r.channels) {
        const had = this.channels.get(ch.id);
        this.channels.set(ch.id, { messages: [], loaded: false, more: false, ...had, ...ch });
      }
      const cur = this.channels.get(this.active);
      if (cur && cur.loaded) await this.fetchNewer(cur);
      if (this.open) this.markRead(cur);
      this.draw();
    } catch {
      /* offline or gone: the next status change or tick tries again */
    }
  }

  // The newest page of ch, or (older) the page before its first message.
  async fetchPage(ch, older = false) {
    const first = ch.messages[0];
    const q = older && first ? `?before=${first.seq}&limit=50` : '?limit=50';
    const r = await request('GET', `${this.base}/${ch.id}/messages${q}`);
    this.merge(ch, r.messages);
    if (!older || !first) ch.loaded = true;
    ch.more = r.more;
    this.draw();
  }

  async fetchNewer(ch) {
    const last = ch.messages[ch.messages.length - 1];
    if (!last) return this.fetchPage(ch);
    const r = await request('GET', `${this.base}/${ch.id}/messages?after=${last.seq}&limit=100`);
    this.merge(ch, r.messages);
    if (r.more) return this.fetchNewer(ch);
    return null;
  }

  merge(ch, msgs) {
    const seen = new Set(ch.messages.map((m) => m.seq));
    for (const m of msgs) if (!seen.has(m.seq)) ch.messages.push(m);
    ch.messages.sort((a, b) => a.seq - b.seq);
    const last = ch.messages[ch.messages.length - 1];
    if (last && last.seq > (ch.last_seq || 0)) ch.last_seq = last.seq;
  }

  onMessage(m) {
    let ch = this.channels.get(m.channel);
    if (!ch) {
      // A channel someone just opened with you.
      ch = {
        id: m.channel,
        kind: m.channel === 0 ? 'public' : 'private',
        seats: m.seats,
        last_seq: 0,
        read: 0,
        unread: 0,
        messages: [],
        loaded: false,
        more: false,
      };
      this.channels.set(m.channel, ch);
    }
    const gap =
      ch.loaded &&
      ch.messages.length &&
      m.message.seq > ch.messages[ch.messages.length - 1].seq + 1;
    this.merge(ch, [m.message]);
    if (gap)
      this.fetchNewer(ch)
        .then(() => this.draw())
        .catch(() => {});
    const mine = m.message.seat === this.c.meta?.you;
    const seen = this.open && this.active === ch.id && document.visibilityState !== 'hidden';
    if (!mine && !seen) {
      ch.unread = (ch.unread || 0) + 1;
      if (!this.open) announce(`New message from ${m.message.player.name}`);
    }
    if (seen) this.markRead(ch);
    this.draw();
  }

  async markRead(ch) {
    if (!ch || this.spectator() || !ch.last_seq || ch.read >= ch.last_seq) {
      if (ch) ch.unread = this.spectator() ? 0 : ch.unread;
      return;
    }
    ch.unread = 0;
    ch.read = ch.last_seq;
    try {
      const r = await request('PUT', `${this.base}/${ch.id}/read`, { body: { seq: ch.last_seq } });
      ch.unread = r.unread;
    } catch {
      /* the mark moves next time */
    }
    this.draw();
  }

  async show(id) {
    this.active = id;
    const ch = this.channels.get(id);
    this.draw();
    if (!ch) return;
    try {
      if (!ch.loaded) await this.fetchPage(ch);
    } catch {
      /* shown empty; refresh tries again */
    }
    if (this.open) this.markRead(ch);
    this.list.scrollTop = this.list.scrollHeight;
  }

  label(ch) {
    if (ch.kind === 'public') return 'Public';
    const you = this.c.meta?.you;
    return (
      ch.seats
        .filter((s) => s !== you)
        .map((s) => this.c.seatName(s))
        .join(', ') || 'Private'
    );
  }

  tabKey(e) {
    const tabs = [...this.tabs.querySelectorAll('[role="tab"]')];
    const i = tabs.indexOf(document.activeElement);
    if (i < 0) return;
    let j = null;
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') j = (i + 1) % tabs.length;
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') j = (i - 1 + tabs.length) % tabs.length;
    else if (e.key === 'Home') j = 0;
    else if (e.key === 'End') j = tabs.length - 1;
    if (j === null) return;
    e.preventDefault();
    tabs[j].focus();
    this.show(Number(tabs[j].dataset.channel)).then(() =>
      this.tabs.querySelector(`[data-channel="${tabs[j].dataset.channel}"]`)?.focus(),
    );
  }

  textKey(e) {
    if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      this.send();
    }
  }

  count() {
    const n = [...this.text.value].length;
    this.counter.textContent = n > MAX_CHARS - 200 ? `${n} / ${MAX_CHARS}` : '';
  }

  async send() {
    const text = this.text.value;
    if (!text.trim()) return;
    const ch = this.channels.get(this.active);
    if (!ch) return;
    try {
      const m = await request('POST', `${this.base}/${ch.id}/messages`, { body: { text } });
      this.text.value = '';
      this.count();
      this.merge(ch, [m]);
      this.draw();
      this.list.scrollTop = this.list.scrollHeight;
    } catch (e) {
      toast(e.detail || 'The message was not sent', 'error');
    }
  }

  async startWith(seats) {
    try {
      const ch = await request('POST', this.base, { body: { seats } });
      const had = this.channels.get(ch.id);
      this.channels.set(ch.id, { messages: [], loaded: false, more: false, ...had, ...ch });
      this.starting = false;
      await this.show(ch.id);
      this.text.focus();
    } catch (e) {
      toast(e.detail || 'The channel could not be opened', 'error');
    }
  }

  drawStarter() {
    const meta = this.c.meta;
    if (this.spectator() || !meta) return render(this.starter);
    if (!this.starting) {
      return render(
        this.starter,
        h(
          'button.chat-new',
          {
            type: 'button',
            onclick: () => {
              this.starting = true;
              this.draw();
              this.starter.querySelector('input')?.focus();
            },
          },
          '+ Private channel',
        ),
      );
    }
    const others = meta.seats.map((s) => s.seat).filter((s) => s !== meta.you);
    const boxes = others.map((s) =>
      h(
        'label.chat-pick',
        h('input', { type: 'checkbox', value: String(s) }),
        ` ${this.c.seatName(s)}`,
      ),
    );
    const go = () => {
      const seats = [...this.starter.querySelectorAll('input:checked')].map((x) => Number(x.value));
      if (seats.length) this.startWith(seats);
    };
    return render(
      this.starter,
      h(
        'fieldset.chat-pickset',
        h('legend', 'Talk privately with'),
        boxes,
        h(
          'div.chat-row',
          h('button.primary', { type: 'button', onclick: go }, 'Open'),
          h(
            'button',
            {
              type: 'button',
              onclick: () => {
                this.starting = false;
                this.draw();
              },
            },
            'Cancel',
          ),
        ),
      ),
    );
  }

  drawMessages(ch) {
    const you = this.c.meta?.you;
    const items = ch
      ? ch.messages.map((m) =>
          h(
            'div.chat-msg',
            { class: m.seat === you ? 'chat-mine' : null, dataset: { seq: String(m.seq) } },
            h('span.chat-who', `${m.player.name}`),
            h(
              'span.chat-when.muted',
              new Date(m.at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }),
            ),
            h('p.chat-body', m.text),
          ),
        )
      : [];
    const older =
      ch && ch.more
        ? h(
            'button.chat-older',
            { type: 'button', onclick: () => this.fetchPage(ch, true).catch(() => {}) },
            'Older messages',
          )
        : null;
    const empty = ch && ch.loaded && !ch.messages.length ? h('p.muted', 'No messages yet.') : null;
    const stick = this.list.scrollHeight - this.list.scrollTop - this.list.clientHeight < 40;
    render(this.list, older, empty, items);
    if (stick) this.list.scrollTop = this.list.scrollHeight;
  }

  draw() {
    const chans = [...this.channels.values()].sort((a, b) => a.id - b.id);
    const total = chans.reduce((n, ch) => n + (ch.unread || 0), 0);
    this.badge.textContent = total ? String(total) : '';
    this.toggle.setAttribute('aria-label', total ? `Talk, ${total} unread` : 'Talk');
    render(
      this.tabs,
      chans.map((ch) => {
        const sel = ch.id === this.active;
        return h(
          'button.chat-tab',
          {
            type: 'button',
            role: 'tab',
            'aria-selected': String(sel),
            'aria-controls': 'chat-log',
            tabindex: sel ? '0' : '-1',
            dataset: { channel: String(ch.id), key: `chat-tab-${ch.id}` },
            onclick: () => this.show(ch.id),
          },
          this.label(ch),
          ch.unread
            ? h('span.chat-unread', { 'aria-label': `${ch.unread} unread` }, String(ch.unread))
            : null,
        );
      }),
    );
    this.drawStarter();
    this.drawMessages(this.channels.get(this.active));
    const spectator = this.spectator();
    this.form.hidden = spectator;
    this.note.textContent = spectator
      ? 'Only players seated in this game write here; you read the public channel.'
      : '';
    this.note.hidden = !spectator;
  }

  destroy() {
    if (this.unchat) this.unchat();
    if (this.unstatus) this.unstatus();
    for (const t of this.timers) clearInterval(t);
    this.el.remove();
  }
}
