import { safeHttpUrl, sanitizeDiffHtml, sanitizeMarkdown } from '../safe-html';

function render(markdown: string): HTMLElement {
  const div = document.createElement('div');

  div.innerHTML = sanitizeMarkdown(markdown);

  return div;
}

describe('sanitizeMarkdown', () => {
  it('renders the Markdown lists changelogs use', () => {
    const div = render('This update for curl fixes the following issues:\n\n- CVE-2024-11053: netrc leak\n- CVE-2024-9681: HSTS');

    expect(div.querySelectorAll('li')).toHaveLength(2);
    expect(div.querySelector('li')?.textContent).toBe('CVE-2024-11053: netrc leak');
  });

  it('drops images with event handlers, scripts, iframes and styles', () => {
    const div = render('before <img src=x onerror="window.pwned=1"> <script>window.pwned=2</script><iframe src="https://evil.example"></iframe><style>body{}</style> after');

    expect(div.querySelector('img, script, iframe, style')).toBeNull();
    expect(div.innerHTML).not.toMatch(/onerror|pwned/);
    expect(div.textContent).toContain('before');
    expect(div.textContent).toContain('after');
  });

  it('keeps http(s) links, opening in a new tab without opener or referrer', () => {
    const link = render('[advisory](https://www.suse.com/support/update/)').querySelector('a');

    expect(link?.getAttribute('href')).toBe('https://www.suse.com/support/update/');
    expect(link?.getAttribute('target')).toBe('_blank');
    expect(link?.getAttribute('rel')).toBe('noopener noreferrer');
  });

  it('turns javascript:, data: and relative links into plain text', () => {
    const div = render('[one](javascript:alert(1)) [two](data:text/html,<script>alert(2)</script>) [three](/v3/settings) <a href="JaVaScRiPt:alert(4)">four</a> <a href=" javascript:alert(5)">five</a>');

    expect(div.querySelectorAll('a')).toHaveLength(0);
    expect(div.textContent).toContain('one');
    expect(div.textContent).toContain('four');
    expect(div.textContent).toContain('five');
  });

  it('shows template markers as text', () => {
    expect(render('SUSE Linux Micro %%SLMICRO_VERSION%% {{ constructor }}').textContent?.trim()).toBe('SUSE Linux Micro %%SLMICRO_VERSION%% {{ constructor }}');
  });
});

describe('safeHttpUrl', () => {
  it('accepts only absolute http(s) URLs', () => {
    expect(safeHttpUrl('https://www.suse.com/security/cve/CVE-2024-11053/')).toBe('https://www.suse.com/security/cve/CVE-2024-11053/');
    for (const href of ['javascript:alert(1)', 'data:text/html,x', '//evil.example/x', '/relative', 'vbscript:x', '', undefined, 42]) {
      expect(safeHttpUrl(href)).toBeUndefined();
    }
  });
});

describe('sanitizeDiffHtml', () => {
  it('keeps diff2html classes and drops anything active', () => {
    const out = sanitizeDiffHtml('<div class="d2h-wrapper"><table class="d2h-diff-table"><tr><td class="d2h-ins"><img src=x onerror=alert(1)>curl</td></tr></table><script>alert(1)</script></div>');

    expect(out).toContain('class="d2h-wrapper"');
    expect(out).toContain('class="d2h-ins"');
    expect(out).not.toMatch(/img|script|onerror/);
  });
});
