// form.js - a form generated from a ruleset's options JSON Schema (GET
// /api/v1/rulesets): booleans, integers and numbers (with their bounds and
// default), string enums, free strings, and arrays of enum values with
// uniqueItems (a group of checkboxes). values() gives the options object to
// send: only the fields the player set, so the server's defaults apply to
// the rest.

import { h, field } from './ui.js';

const label = (name, p) =>
  (p && p.title) ||
  name
    .replace(/_/g, ' ')
    .replace(/\bvp\b/gi, 'VP')
    .replace(/^./, (c) => c.toUpperCase());

export function schemaForm(schema, { prefix = 'opt' } = {}) {
  const props = (schema && schema.properties) || {};
  const getters = [];
  const fields = [];
  for (const [name, p] of Object.entries(props)) {
    const id = `${prefix}-${name}`;
    const hint = p.description || null;
    if (p.type === 'boolean') {
      // On or off; with no default in the schema, a third state leaves it
      // to the game's own rule. Only a change from the default is sent.
      const sel = h(
        'select',
        { id, name, 'data-key': id },
        typeof p.default === 'boolean' ? null : h('option', { value: '' }, 'As the rules say'),
        h('option', { value: 'true' }, 'On'),
        h('option', { value: 'false' }, 'Off'),
      );
      if (typeof p.default === 'boolean') sel.value = String(p.default);
      fields.push(field(label(name, p), sel, hint));
      getters.push(() =>
        sel.value === '' || sel.value === String(p.default)
          ? undefined
          : [name, sel.value === 'true'],
      );
    } else if (p.type === 'integer' || p.type === 'number') {
      const input = h('input', {
        id,
        name,
        type: 'number',
        inputmode: 'numeric',
        'data-key': id,
        min: p.minimum,
        max: p.maximum,
        step: p.type === 'integer' ? 1 : 'any',
        placeholder: p.default !== undefined ? String(p.default) : '',
      });
      if (p.default !== undefined) input.value = String(p.default);
      const range =
        p.minimum !== undefined && p.maximum !== undefined ? `${p.minimum} to ${p.maximum}` : '';
      fields.push(field(label(name, p), input, [hint, range].filter(Boolean).join(' · ') || null));
      getters.push(() => {
        if (input.value === '') return undefined;
        const v = Number(input.value);
        if (p.default !== undefined && v === p.default) return undefined;
        return [name, v];
      });
    } else if (Array.isArray(p.enum) || (p.type === 'string' && Array.isArray(p.enum))) {
      const sel = h(
        'select',
        { id, name, 'data-key': id },
        h(
          'option',
          { value: '' },
          p.default !== undefined ? `${p.default} (standard)` : 'As the rules say',
        ),
        p.enum
          .filter((v) => v !== p.default)
          .map((v) => h('option', { value: JSON.stringify(v) }, String(v))),
      );
      fields.push(field(label(name, p), sel, hint));
      getters.push(() => (sel.value === '' ? undefined : [name, JSON.parse(sel.value)]));
    } else if (p.type === 'array' && p.items && Array.isArray(p.items.enum)) {
      const boxes = p.items.enum.map((v) =>
        h('input', { type: 'checkbox', value: JSON.stringify(v), 'data-key': `${id}-${v}` }),
      );
      const group = h(
        'fieldset.field.checks',
        h('legend', label(name, p)),
        boxes.map((b, i) => h('label.check', b, ` ${p.items.enum[i]}`)),
        hint ? h('small.hint', hint) : null,
      );
      fields.push(group);
      getters.push(() => {
        const vals = boxes.filter((b) => b.checked).map((b) => JSON.parse(b.value));
        return vals.length ? [name, vals] : undefined;
      });
    } else if (p.type === 'string') {
      const input = h('input', { id, name, type: 'text', 'data-key': id, maxlength: p.maxLength });
      fields.push(field(label(name, p), input, hint));
      getters.push(() => (input.value === '' ? undefined : [name, input.value]));
    }
  }
  return {
    element: fields.length
      ? h('div.schema-form', fields)
      : h('p.muted', 'This game has no options.'),
    values() {
      const out = {};
      for (const g of getters) {
        const kv = g();
        if (kv) out[kv[0]] = kv[1];
      }
      return out;
    },
  };
}
