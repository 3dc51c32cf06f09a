// Everything from a channel, changelog or package list is hostile (rule "Hostile content" of domain/README.md): Markdown goes
// through marked, then DOMPurify; links survive only as http(s) opening in a new tab.
import createDOMPurify, { DOMPurify } from 'dompurify';
import { marked } from 'marked';

const ALLOWED_TAGS = [
  'p', 'br', 'hr', 'ul', 'ol', 'li', 'em', 'strong', 'b', 'i', 'del', 'code', 'pre', 'blockquote', 'a', 'sub', 'sup'
];

/** The URL when it is an absolute http(s) URL, else undefined: never `javascript:`, `data:`… */
export function safeHttpUrl(href: unknown): string | undefined {
  if (typeof href !== 'string') {
    return undefined;
  }
  const text = href.trim();

  if (!/^https?:\/\//i.test(text)) {
    return undefined;
  }
  try {
    const url = new URL(text);

    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

let purifier: DOMPurify | undefined;

// An instance of its own: hooks on the global DOMPurify would change the shell's sanitising too.
function getPurifier(): DOMPurify {
  if (!purifier) {
    purifier = createDOMPurify(window);
    purifier.addHook('afterSanitizeAttributes', (node) => {
      if (node.nodeName === 'A') {
        const href = safeHttpUrl(node.getAttribute('href'));

        if (href) {
          node.setAttribute('href', href);
          node.setAttribute('target', '_blank');
          node.setAttribute('rel', 'noopener noreferrer');
        } else {
          node.removeAttribute('href');
        }
      }
    });
  }

  return purifier;
}

/** Sanitised HTML: only ALLOWED_TAGS, links only http(s); a refused link becomes its text. */
export function sanitizeHtml(html: string): string {
  const body = getPurifier().sanitize(html, {
    ALLOWED_TAGS, ALLOWED_ATTR: ['href', 'title', 'target', 'rel'], RETURN_DOM: true
  }) as HTMLElement;

  for (const anchor of Array.from(body.querySelectorAll<HTMLAnchorElement>('a:not([href])'))) {
    anchor.replaceWith(document.createTextNode(anchor.textContent ?? ''));
  }

  return body.innerHTML;
}

/** Markdown from outside → sanitised HTML. */
export function sanitizeMarkdown(markdown: string): string {
  const html = marked.parse(markdown, {
    gfm: true, breaks: true, headerIds: false, mangle: false
  });

  return sanitizeHtml(html);
}

let diffPurifier: DOMPurify | undefined;

/** diff2html's output, sanitised like anything else that reaches v-html; keeps its classes. */
export function sanitizeDiffHtml(html: string): string {
  diffPurifier = diffPurifier ?? createDOMPurify(window);

  return diffPurifier.sanitize(html, {
    ALLOWED_TAGS: ['div', 'span', 'table', 'thead', 'tbody', 'tr', 'td', 'th', 'ins', 'del', 'br', 'svg', 'path'],
    ALLOWED_ATTR: ['class', 'colspan', 'rowspan', 'viewBox', 'd', 'aria-hidden', 'height', 'width', 'version'],
  });
}
