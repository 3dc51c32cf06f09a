import { skipUnchangedLangWrites } from '../unchanged-lang';

/** The attribute writes a MutationObserver sees while `write` runs (the DOM reports same-value writes too). */
async function recorded(html: HTMLElement, write: () => void): Promise<string[]> {
  const records: string[] = [];
  const observer = new MutationObserver((list) => list.forEach((record) => records.push(`${ record.attributeName }:${ record.oldValue }`)));

  observer.observe(html, { attributes: true, attributeOldValue: true });
  write();
  await Promise.resolve();
  observer.disconnect();

  return records;
}

describe('skipUnchangedLangWrites (the shell rewrites <html lang> on every navigation)', () => {
  it('drops a write of the lang already there, which the DOM would otherwise carry out', async() => {
    const html = document.createElement('html');

    html.setAttribute('lang', 'en-us');
    expect(await recorded(html, () => html.setAttribute('lang', 'en-us'))).toEqual(['lang:en-us']);
    skipUnchangedLangWrites(html);
    expect(await recorded(html, () => html.setAttribute('lang', 'en-us'))).toEqual([]);
    expect(html.getAttribute('lang')).toBe('en-us');
  });

  it('lets a new locale through, and every other attribute', async() => {
    const html = document.createElement('html');

    skipUnchangedLangWrites(html);
    html.setAttribute('lang', 'en-us');
    expect(await recorded(html, () => html.setAttribute('lang', 'zh-hans'))).toEqual(['lang:en-us']);
    expect(html.getAttribute('lang')).toBe('zh-hans');
    html.setAttribute('class', 'theme-dark');
    expect(await recorded(html, () => html.setAttribute('class', 'theme-dark'))).toEqual(['class:theme-dark']);
    html.removeAttribute('lang');
    html.setAttribute('lang', 'en-us');
    expect(html.getAttribute('lang')).toBe('en-us');
  });

  it('wraps the element once, however often the extension is loaded', () => {
    const html = document.createElement('html');

    skipUnchangedLangWrites(html);
    const wrapped = html.setAttribute;

    skipUnchangedLangWrites(html);
    expect(html.setAttribute).toBe(wrapped);
  });
});
