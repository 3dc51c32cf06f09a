// Layout helpers for the narrow-screen checks: how far a page scrolls sideways, and a screenshot of
// all of it. The shell scrolls its pages inside `main.main-layout` (the body itself never grows),
// so both the document and that element are measured.

import { Page, TestInfo } from '@playwright/test';

/** Pixels the page scrolls sideways: 0 when everything fits (document and the shell's main area). */
export async function sidewaysScroll(page: Page): Promise<number> {
  return page.evaluate(() => {
    const overflow = (element: Element | null) => (element ? element.scrollWidth - element.clientWidth : 0);

    return Math.max(overflow(document.documentElement), overflow(document.querySelector('main.main-layout')));
  });
}

/**
 * What sticks out to the right of the shell's main area (elements, not the scrolling boxes inside
 * it such as a diff): for a failure message that says which part of the page is too wide.
 */
export async function tooWide(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const main = document.querySelector('main.main-layout');

    if (!main) {
      return [];
    }
    const right = main.getBoundingClientRect().right;
    const clipped = (element: Element) => {
      for (let parent = element.parentElement; parent && parent !== main; parent = parent.parentElement) {
        if (getComputedStyle(parent).overflowX !== 'visible') {
          return true;
        }
      }

      return false;
    };

    return Array.from(main.querySelectorAll('*'))
      .filter((element) => element.getBoundingClientRect().right > right + 1 && !clipped(element))
      .slice(0, 5)
      .map((element) => `${ element.tagName.toLowerCase() }.${ String(element.className).split(' ').join('.') } ${ element.getAttribute('data-testid') ?? '' }`.trim());
  });
}

/**
 * Attaches a screenshot of the whole page to the test's report: the viewport grows to the height
 * of the shell's main area for the shot (it scrolls inside its own box), then returns.
 */
export async function attachFullPage(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const viewport = page.viewportSize() ?? { width: 1024, height: 768 };
  const height = await page.evaluate(() => {
    const main = document.querySelector('main.main-layout');

    return main ? main.getBoundingClientRect().top + main.scrollHeight : document.documentElement.scrollHeight;
  });

  await page.setViewportSize({ width: viewport.width, height: Math.min(Math.max(viewport.height, Math.ceil(height)), 8000) });
  const body = await page.screenshot({ fullPage: true });

  await page.setViewportSize(viewport);
  await testInfo.attach(name, { body, contentType: 'image/png' });
}
