import { readFileSync } from 'fs';
import { join } from 'path';
import jsyaml from 'js-yaml';
import IntlMessageFormat from 'intl-messageformat';

const L10N = join(__dirname, '../../pkg/os-upgrades/l10n');

// The locales the shell offers (store/i18n.js) and the file of each.
const LOCALES = { 'en-us': 'en-us.yaml', 'zh-hans': 'zh-hans.yaml' };

type Tree = Record<string, unknown>;

function load(file: string): Tree {
  return jsyaml.safeLoad(readFileSync(join(L10N, file), 'utf8')) as Tree;
}

function flatten(tree: unknown, path: string[] = [], out: Record<string, unknown> = {}): Record<string, unknown> {
  if (tree && typeof tree === 'object') {
    Object.entries(tree as Tree).forEach(([key, child]) => flatten(child, [...path, key], out));
  } else {
    out[path.join('.')] = tree;
  }

  return out;
}

interface AstNode {
  type: number;
  value?: string;
  options?: Record<string, { value: AstNode[] }>;
}

const TYPE_NAMES = ['literal', 'argument', 'number', 'date', 'time', 'select', 'plural', 'pound'];

// The arguments of a message as the shell formats it: `name:type` for every {argument}, also the
// ones inside plural/select branches, and `name:select=a|b` for the keys a select must keep. The
// branch texts themselves are translated, so they are not compared.
function argumentsOf(message: string, locale: string): string[] {
  const found = new Set<string>();
  const walk = (nodes: AstNode[]) => nodes.forEach((node) => {
    const type = TYPE_NAMES[node.type];

    if (type === 'literal' || type === 'pound') {
      return;
    }
    found.add(`${ node.value }:${ type }`);
    if (type === 'select') {
      found.add(`${ node.value }:select=${ Object.keys(node.options || {}).sort().join('|') }`);
    }
    Object.values(node.options || {}).forEach((option) => walk(option.value));
  });

  try {
    walk(new IntlMessageFormat(message, locale).getAst() as unknown as AstNode[]);
  } catch (e) {
    return [`unparsable: ${ (e as Error).message }`];
  }

  return [...found].sort();
}

describe('translations', () => {
  const english = flatten(load(LOCALES['en-us']));
  const chinese = flatten(load(LOCALES['zh-hans']));
  const englishKeys = Object.keys(english).sort();
  const chineseKeys = Object.keys(chinese).sort();

  it('has every English key in Simplified Chinese', () => {
    expect(englishKeys.filter((key) => !(key in chinese))).toStrictEqual([]);
  });

  it('has no Simplified Chinese key that English lacks', () => {
    expect(chineseKeys.filter((key) => !(key in english))).toStrictEqual([]);
  });

  it('has only non-empty texts', () => {
    const bad = (texts: Record<string, unknown>) => Object.keys(texts).filter((key) => typeof texts[key] !== 'string' || !(texts[key] as string).trim());

    expect(bad(english)).toStrictEqual([]);
    expect(bad(chinese)).toStrictEqual([]);
  });

  it('keeps the same placeholders in both languages', () => {
    const mismatched = englishKeys
      .filter((key) => key in chinese)
      .map((key) => ({
        key, en: argumentsOf(String(english[key]), 'en-us'), zh: argumentsOf(String(chinese[key]), 'zh-hans')
      }))
      .filter(({ en, zh }) => en.join() !== zh.join());

    expect(mismatched).toStrictEqual([]);
  });

  it('formats every text in its locale, as the shell does', () => {
    const failures: string[] = [];

    Object.entries({ 'en-us': english, 'zh-hans': chinese }).forEach(([locale, texts]) => {
      Object.entries(texts).forEach(([key, text]) => {
        const message = String(text);

        if (!message.includes('{')) {
          return; // the shell returns such texts as they are
        }
        try {
          const values: Record<string, string | number> = {};

          argumentsOf(message, locale).forEach((arg) => {
            const [name, type] = arg.split(':');

            values[name] = type === 'plural' || type === 'number' ? 2 : (type.startsWith('select=') ? type.slice(7).split('|')[0] : 'x');
          });
          const out = new IntlMessageFormat(message, locale).format(values);

          if (typeof out !== 'string' || !out.trim()) {
            failures.push(`${ locale } ${ key }: empty`);
          }
        } catch (e) {
          failures.push(`${ locale } ${ key }: ${ (e as Error).message }`);
        }
      });
    });

    expect(failures).toStrictEqual([]);
  });
});
