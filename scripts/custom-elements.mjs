// Writes custom-elements.json (Custom Elements Manifest 2.0) from the components' JSDoc: the class comment's description,
// @fires, @csspart, @cssprop and @slot tags, and each documented `@property(...)` field. `--check` fails (exit 1) when the
// checked-in file is not what the sources say (npm test runs it). A small reader of this codebase's conventions, not a
// TypeScript analyzer: @custom-elements-manifest/analyzer would be the general tool.
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = `${root}custom-elements.json`;

/** `session-url`, declared once in the base class every component extends. */
const base = readFileSync(`${root}src/components/ramp-element.ts`, 'utf8');

function clean(doc) {
  return doc
    .split('\n')
    .map((line) => line.replace(/^\s*\/?\*+\/?\s?/, '').trimEnd())
    .join('\n')
    .trim();
}

function classDoc(source, className) {
  const at = source.indexOf(`export class ${className} `);
  const end = source.lastIndexOf('*/', at);
  const start = source.lastIndexOf('/**', end);
  if (at < 0 || start < 0) throw new Error(`${className}: no class comment`);
  const text = clean(source.slice(start + 3, end));
  const tags = { fires: [], csspart: [], cssprop: [], slot: [] };
  const description = [];
  for (const line of text.split('\n')) {
    const tag = /^@(fires|csspart|cssprop|slot)\s+(\S+)(?:\s+-\s+(.*))?$/.exec(line);
    if (tag) tags[tag[1]].push({ name: tag[2], description: tag[3] ?? '' });
    else if (!line.startsWith('@')) description.push(line);
  }
  return { description: description.join('\n').trim(), ...tags };
}

function properties(source) {
  const re = /\/\*\*((?:(?!\*\/)[\s\S])*?)\*\/\s*@property\(([^)]*)\)\s*(?:override\s+)?(\w+)(?:\s*:\s*([^=;]+?))?\s*(?:=\s*([^;]+))?;/g;
  const found = [];
  for (const m of source.matchAll(re)) {
    const [, doc, options, name, type, initial] = m;
    const attr = /attribute:\s*(false|'([^']+)')/.exec(options);
    const attribute = attr ? (attr[1] === 'false' ? undefined : attr[2]) : name.toLowerCase();
    const typeText = type?.trim() ?? (/type:\s*Number/.test(options) ? 'number' : /type:\s*Boolean/.test(options) ? 'boolean' : 'string');
    found.push({ name, attribute, type: typeText, default: initial?.trim(), description: clean(doc), reflects: /reflect:\s*true/.test(options) });
  }
  return found;
}

function declaration(tagName, className, source) {
  const doc = classDoc(source, className);
  const inherited = classDoc(base, 'RampElement');
  for (const event of inherited.fires) if (!doc.fires.some((e) => e.name === event.name)) doc.fires.push(event);
  const props = [...properties(source), ...properties(base)];
  return {
    kind: 'class',
    name: className,
    tagName,
    customElement: true,
    description: doc.description,
    attributes: props.filter((p) => p.attribute).map((p) => ({ name: p.attribute, fieldName: p.name, type: { text: p.type }, ...(p.default ? { default: p.default } : {}), description: p.description })),
    members: props.map((p) => ({
      kind: 'field',
      name: p.name,
      type: { text: p.type },
      ...(p.default ? { default: p.default } : {}),
      description: p.description,
      ...(p.attribute ? { attribute: p.attribute } : {}),
      ...(p.reflects ? { reflects: true } : {}),
    })),
    events: doc.fires.map((e) => ({ name: e.name, description: e.description })),
    cssParts: doc.csspart,
    cssProperties: doc.cssprop,
    slots: doc.slot,
  };
}

export function manifest() {
  const modules = [];
  for (const file of readdirSync(`${root}src/elements`).sort()) {
    if (file === 'define-once.ts') continue;
    const entry = readFileSync(`${root}src/elements/${file}`, 'utf8');
    const def = /defineOnce\('([\w-]+)',\s*(\w+)\)/.exec(entry);
    const imp = /from '\.\.\/components\/([\w/-]+)'/.exec(entry);
    if (!def || !imp) throw new Error(`src/elements/${file}: expected defineOnce('tag', Class) and an import from ../components`);
    const path = `src/components/${imp[1]}.ts`;
    const source = readFileSync(`${root}${path}`, 'utf8');
    modules.push({
      kind: 'javascript-module',
      path,
      declarations: [declaration(def[1], def[2], source)],
      exports: [
        { kind: 'js', name: def[2], declaration: { name: def[2], module: path } },
        { kind: 'custom-element-definition', name: def[1], declaration: { name: def[2], module: path } },
      ],
    });
  }
  return { schemaVersion: '2.0.0', readme: 'README.md', modules };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = `${JSON.stringify(manifest(), null, 2)}\n`;
  if (process.argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(out, 'utf8');
    } catch {}
    if (current !== text) {
      console.error('custom-elements.json is out of date: run `npm run manifest` and commit it');
      process.exit(1);
    }
    console.log('custom-elements.json is up to date');
  } else {
    writeFileSync(out, text);
    console.log(`wrote ${out}`);
  }
}
