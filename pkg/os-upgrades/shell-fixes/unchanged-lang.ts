// The shell's i18n navigation guard writes the locale to <html lang> before every route change, the
// same value each time (@rancher/shell 3.0.5 and 3.0.13: config/router/navigation-guards/i18n.js →
// store/i18n.js setSelected). Chromium then recomputes the style of every element of the page being
// left, and vue-router's reading of the scroll position makes it do that at once: 7 to 8 ms of each
// navigation on the channels list (README, "Benchmarks"). A write of the value already there
// changes nothing, so it is skipped; any other write goes through.

const INSTALLED = Symbol('os-upgrades: unchanged lang writes skipped');

type MarkedElement = HTMLElement & { [INSTALLED]?: true };

export function skipUnchangedLangWrites(html: HTMLElement): void {
  const element = html as MarkedElement;

  if (element[INSTALLED]) {
    return;
  }
  const setAttribute = element.setAttribute;

  element.setAttribute = function(name: string, value: string): void {
    if (name.toLowerCase() === 'lang' && this.getAttribute('lang') === String(value)) {
      return;
    }
    setAttribute.call(this, name, value);
  };
  element[INSTALLED] = true;
}
