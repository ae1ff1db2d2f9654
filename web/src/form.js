// The tool-call form, generated from the engine's `toolSchemas()`: a tool picker and one
// field per argument of its JSON Schema, typed as the schema says (string, integer,
// boolean, {start, end} object, array-or-string). Required arguments are always shown;
// optional ones appear when set, and the chips below the form add the others. An
// argument that is absent and one that is set to "" or false are different calls, so
// the form keeps them apart: the × of a field removes the argument.
//
// The form never owns the call: it renders the call it is given (`show`) and reports
// the call the user made (`onChange`). main.js keeps it and the JSON editor in sync.

const el = (tag, props = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === 'class') node.className = v;
    else if (k === 'dataset') Object.assign(node.dataset, v);
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else if (v !== undefined && v !== null && v !== false) node.setAttribute(k, v === true ? '' : v);
  }
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
};

/** The kind of control a property schema calls for. */
export function fieldKind(prop) {
  const type = prop?.type;
  if (Array.isArray(type)) {
    if (type.includes('array') && type.includes('string')) return 'array|string';
    return 'json';
  }
  if (type === 'string') return 'string';
  if (type === 'integer' || type === 'number') return 'integer';
  if (type === 'boolean') return 'boolean';
  if (type === 'object' && prop.properties) return 'object';
  return 'json';
}

/** Whether `value` has the JSON type `kind` expects (else the form shows it as foreign). */
function fits(kind, value) {
  switch (kind) {
    case 'string':
      return typeof value === 'string';
    case 'integer':
      return Number.isInteger(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value);
    case 'array|string':
      return typeof value === 'string' || Array.isArray(value);
    default:
      return true;
  }
}

/** The value an optional argument starts with when its chip adds it. */
function initialValue(kind, prop) {
  switch (kind) {
    case 'string':
      return '';
    case 'integer':
      return typeof prop.minimum === 'number' ? prop.minimum : 1;
    case 'boolean':
      return true;
    case 'object':
      return Object.fromEntries(Object.keys(prop.properties).map((k) => [k, '']));
    case 'array|string':
      return [];
    default:
      return null;
  }
}

function autosize(textarea) {
  textarea.style.height = 'auto';
  textarea.style.height = `${Math.min(textarea.scrollHeight + 2, 340)}px`;
}

export class CallForm {
  /**
   * `root`: the element to render into. `schemas`: toolSchemas(). `onChange(call)`:
   * called with the new {tool, arguments} after every edit in the form.
   */
  constructor(root, schemas, onChange) {
    this.root = root;
    this.schemas = new Map(schemas.map((s) => [s.name, s]));
    this.onChange = onChange;
    this.call = { tool: schemas[0]?.name ?? '', arguments: {} };
    this.signature = '';
    this.modes = new Map(); // argument → 'array' | 'string' for array-or-string fields
  }

  schemaOf(tool) {
    return this.schemas.get(tool);
  }

  /** Renders `call` ({tool, arguments}); `note` is shown above the fields (e.g. a JSON error). */
  show(call, note = '') {
    const args = call.arguments && typeof call.arguments === 'object' && !Array.isArray(call.arguments) ? call.arguments : {};
    this.call = { tool: call.tool, arguments: args };
    const schema = this.schemaOf(call.tool);
    const props = schema?.inputSchema?.properties ?? {};
    // Rebuild only when the set of fields changes; otherwise update values in place so
    // the field being typed in keeps its caret.
    const signature = JSON.stringify([
      call.tool,
      Object.keys(args).map((k) => [k, props[k] ? fits(fieldKind(props[k]), args[k]) : 'x', this.modeOf(k, args[k])]),
      typeof call.arguments,
    ]);
    if (signature !== this.signature) {
      this.signature = signature;
      this.render(schema, args);
    } else {
      this.update(args);
    }
    const noteEl = this.root.querySelector('.form-note');
    noteEl.textContent = note;
    noteEl.hidden = !note;
    this.root.classList.toggle('stale', Boolean(note));
  }

  modeOf(name, value) {
    if (typeof value === 'string') return 'string';
    if (Array.isArray(value)) return 'array';
    return this.modes.get(name) ?? 'array';
  }

  emit(args) {
    this.call = { tool: this.call.tool, arguments: args };
    this.onChange(this.call);
  }

  setArg(name, value) {
    this.emit({ ...this.call.arguments, [name]: value });
  }

  removeArg(name) {
    const args = { ...this.call.arguments };
    delete args[name];
    this.emit(args);
  }

  render(schema, args) {
    const root = this.root;
    root.replaceChildren();
    const picker = el(
      'select',
      {
        class: 'tool-picker',
        'aria-label': 'Tool',
        onchange: (e) => {
          const next = this.schemaOf(e.target.value);
          const keep = {};
          for (const [k, v] of Object.entries(this.call.arguments)) {
            if (next?.inputSchema?.properties?.[k]) keep[k] = v;
          }
          this.call = { tool: e.target.value, arguments: keep };
          this.onChange(this.call);
        },
      },
      ...[...this.schemas.keys()].map((name) => el('option', { value: name, selected: name === this.call.tool }, name)),
    );
    if (!schema) {
      picker.prepend(el('option', { value: this.call.tool, selected: true }, `${this.call.tool || '(no tool)'} — unknown`));
    }
    root.append(
      el('div', { class: 'tool-row' }, el('label', { class: 'tool-label' }, 'Tool'), picker),
      el('p', { class: 'tool-description' }, schema ? firstSentence(schema.description) : 'Not a tool of this engine: the engine will refuse the call and list the tools.'),
      el('div', { class: 'form-note', hidden: true }),
    );
    if (!schema) return;
    const props = schema.inputSchema.properties ?? {};
    const required = new Set(schema.inputSchema.required ?? []);
    const fields = el('div', { class: 'fields' });
    for (const [name, prop] of Object.entries(props)) {
      if (!required.has(name) && !(name in args)) continue;
      fields.append(this.field(name, prop, required.has(name), args));
    }
    const extras = Object.keys(args).filter((k) => !props[k]);
    for (const name of extras) fields.append(this.foreignField(name, args[name], 'not in the schema'));
    root.append(fields);
    const absent = Object.entries(props).filter(([n]) => !required.has(n) && !(n in args));
    if (absent.length) {
      root.append(
        el(
          'div',
          { class: 'add-args' },
          el('span', { class: 'add-label' }, 'Add'),
          ...absent.map(([name, prop]) =>
            el(
              'button',
              {
                class: 'chip-add',
                type: 'button',
                title: prop.description ?? '',
                dataset: { add: name },
                onclick: () => this.setArg(name, initialValue(fieldKind(prop), prop)),
              },
              name,
            ),
          ),
        ),
      );
    }
    for (const t of root.querySelectorAll('textarea')) autosize(t);
  }

  field(name, prop, required, args) {
    const kind = fieldKind(prop);
    const present = name in args;
    const value = args[name];
    if (present && !fits(kind, value)) {
      return this.foreignField(name, value, `the schema says ${Array.isArray(prop.type) ? prop.type.join(' or ') : prop.type}`);
    }
    const head = el(
      'div',
      { class: 'field-head' },
      el('label', { class: 'arg-name', for: `arg-${name}` }, name),
      el('span', { class: 'arg-type' }, kind === 'array|string' ? 'array | string' : kind),
      required ? el('span', { class: 'arg-required' }, 'required') : null,
      el('span', { class: 'spacer' }),
      present
        ? el('button', { class: 'arg-remove', type: 'button', title: `Remove ${name} from the call`, 'aria-label': `Remove ${name}`, onclick: () => this.removeArg(name) }, '×')
        : null,
    );
    const box = el('div', { class: `field field-${kind.replace('|', '-')}${present ? '' : ' absent'}`, dataset: { arg: name } }, head);
    if (prop.description) box.append(el('div', { class: 'field-help' }, prop.description));
    box.append(this.control(name, prop, kind, present, value));
    return box;
  }

  control(name, prop, kind, present, value) {
    switch (kind) {
      case 'string': {
        const t = el('textarea', {
          id: `arg-${name}`,
          rows: 1,
          spellcheck: 'false',
          autocomplete: 'off',
          placeholder: present ? '"" (empty string)' : 'not set',
          oninput: (e) => {
            autosize(e.target);
            this.setArg(name, e.target.value);
          },
        });
        t.value = present ? value : '';
        return t;
      }
      case 'integer': {
        const i = el('input', {
          id: `arg-${name}`,
          type: 'number',
          step: 1,
          min: prop.minimum,
          placeholder: 'not set',
          oninput: (e) => {
            const text = e.target.value.trim();
            if (text === '') {
              e.target.classList.remove('invalid');
              this.removeArg(name);
              return;
            }
            const n = Number(text);
            const ok = Number.isInteger(n);
            e.target.classList.toggle('invalid', !ok);
            if (ok) this.setArg(name, n);
          },
        });
        i.value = present ? String(value) : '';
        return i;
      }
      case 'boolean': {
        const seg = el('div', { class: 'segmented', role: 'group', 'aria-label': name, id: `arg-${name}` });
        for (const v of [true, false]) {
          seg.append(
            el(
              'button',
              {
                type: 'button',
                class: present && value === v ? 'on' : '',
                'aria-pressed': String(present && value === v),
                dataset: { value: String(v) },
                onclick: () => this.setArg(name, v),
              },
              String(v),
            ),
          );
        }
        return seg;
      }
      case 'object': {
        const wrap = el('div', { class: 'subfields', id: `arg-${name}` });
        for (const key of Object.keys(prop.properties)) {
          const input = el('input', {
            type: 'text',
            spellcheck: 'false',
            placeholder: 'not set',
            dataset: { sub: key },
            oninput: (e) => {
              const cur = this.call.arguments[name];
              const obj = cur && typeof cur === 'object' && !Array.isArray(cur) ? { ...cur } : {};
              obj[key] = e.target.value;
              this.setArg(name, obj);
            },
          });
          input.value = present && typeof value?.[key] === 'string' ? value[key] : '';
          wrap.append(el('label', { class: 'subfield' }, el('span', {}, key), input));
        }
        return wrap;
      }
      case 'array|string': {
        const mode = this.modeOf(name, value);
        const wrap = el('div', { class: 'union' });
        const error = el('div', { class: 'field-error', hidden: true });
        const t = el('textarea', {
          id: `arg-${name}`,
          rows: 3,
          spellcheck: 'false',
          placeholder: mode === 'array' ? '[{"path": "…", "old_str": "…", "new_str": "…"}]' : 'JSON text or <replacements> XML',
          oninput: (e) => {
            autosize(e.target);
            if (this.modeOf(name, this.call.arguments[name]) === 'string') {
              this.setArg(name, e.target.value);
              return;
            }
            try {
              const parsed = JSON.parse(e.target.value);
              if (!Array.isArray(parsed)) throw new Error('the value is not a JSON array');
              error.hidden = true;
              e.target.classList.remove('invalid');
              this.setArg(name, parsed);
            } catch (err) {
              error.textContent = `Not sent until it is a JSON array: ${err.message}`;
              error.hidden = false;
              e.target.classList.add('invalid');
            }
          },
        });
        t.value = mode === 'array' ? JSON.stringify(Array.isArray(value) ? value : [], null, 2) : value;
        const tabs = el('div', { class: 'segmented small', role: 'group', 'aria-label': `${name} form` });
        for (const m of ['array', 'string']) {
          tabs.append(
            el(
              'button',
              {
                type: 'button',
                class: m === mode ? 'on' : '',
                dataset: { mode: m },
                title: m === 'array' ? 'A JSON array of objects' : 'A string: the array as JSON text, or XML',
                onclick: () => {
                  const cur = this.call.arguments[name];
                  if (m === this.modeOf(name, cur)) return;
                  this.modes.set(name, m);
                  if (m === 'string') {
                    this.setArg(name, Array.isArray(cur) ? JSON.stringify(cur, null, 2) : '');
                  } else {
                    let parsed = [];
                    try {
                      const p = JSON.parse(typeof cur === 'string' ? cur : '[]');
                      if (Array.isArray(p)) parsed = p;
                    } catch {
                      // XML or broken JSON text: start from an empty array.
                    }
                    this.setArg(name, parsed);
                  }
                },
              },
              m,
            ),
          );
        }
        wrap.append(tabs, t, error);
        return wrap;
      }
      default:
        return el('pre', { class: 'json-value' }, JSON.stringify(value ?? null, null, 2));
    }
  }

  /** An argument the form has no control for: shown as JSON, removable; edit it in the JSON. */
  foreignField(name, value, why) {
    return el(
      'div',
      { class: 'field foreign', dataset: { arg: name } },
      el(
        'div',
        { class: 'field-head' },
        el('span', { class: 'arg-name' }, name),
        el('span', { class: 'arg-type warn' }, why),
        el('span', { class: 'spacer' }),
        el('button', { class: 'arg-remove', type: 'button', title: `Remove ${name} from the call`, 'aria-label': `Remove ${name}`, onclick: () => this.removeArg(name) }, '×'),
      ),
      el('div', { class: 'field-help' }, 'Sent as the JSON has it (edit it there); the engine accepts known aliases and refuses the rest, naming the closest argument.'),
      el('pre', { class: 'json-value' }, JSON.stringify(value, null, 2)),
    );
  }

  /** Puts new values into the existing controls (fields unchanged), skipping the focused one. */
  update(args) {
    const focused = document.activeElement;
    for (const box of this.root.querySelectorAll('.field[data-arg]')) {
      const name = box.dataset.arg;
      const value = args[name];
      if (box.classList.contains('foreign')) {
        const pre = box.querySelector('.json-value');
        pre.textContent = JSON.stringify(value, null, 2);
        continue;
      }
      if (box.classList.contains('field-string')) {
        const t = box.querySelector('textarea');
        if (t !== focused && t.value !== (value ?? '')) {
          t.value = value ?? '';
          autosize(t);
        }
      } else if (box.classList.contains('field-integer')) {
        const i = box.querySelector('input');
        if (i !== focused) i.value = value === undefined ? '' : String(value);
      } else if (box.classList.contains('field-boolean')) {
        for (const b of box.querySelectorAll('button[data-value]')) {
          const on = name in args && String(value) === b.dataset.value;
          b.classList.toggle('on', on);
          b.setAttribute('aria-pressed', String(on));
        }
      } else if (box.classList.contains('field-object')) {
        for (const i of box.querySelectorAll('input[data-sub]')) {
          if (i !== focused) i.value = typeof value?.[i.dataset.sub] === 'string' ? value[i.dataset.sub] : '';
        }
      } else if (box.classList.contains('field-array-string')) {
        const t = box.querySelector('textarea');
        if (t !== focused) {
          t.value = Array.isArray(value) ? JSON.stringify(value, null, 2) : (value ?? '');
          t.classList.remove('invalid');
          box.querySelector('.field-error').hidden = true;
          autosize(t);
        }
      }
    }
  }
}

function firstSentence(text = '') {
  const m = /^(.+?\.)(\s|$)/s.exec(text);
  return m ? m[1] : text;
}
