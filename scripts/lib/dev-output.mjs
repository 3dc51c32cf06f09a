// Filters `yarn dev` (vue-cli-service serve) for a person at a terminal: drops webpack's progress
// lines ("[10%] building …", one per module) and the shell proxy's stack traces for a browser tab
// that closed its websocket (EPIPE/ECONNRESET), which say nothing went wrong; keeps everything else.
// Prints a one-line progress note every 10 percent instead, and counts the dropped tab closes.

const PROGRESS = /^\s*(<s>\s*)?(\[webpack\.Progress\]\s*)?\[?(\d{1,3})%\]?\s/;
const PROXY_WS_ERROR = /^Proxy WS Error:.*\b(EPIPE|ECONNRESET)\b/;
const STACK = /^\s+at\s|^\s*\{?\s*(errno|code|syscall)\s*:|^\s*\}\s*$/;

/** A line filter with its own state: returns the text to print for a line ('' for nothing). */
export function devOutputFilter() {
  let lastDecile = -1;
  let inTrace = false;
  let closedSockets = 0;

  return {
    line(raw) {
      // eslint-disable-next-line no-control-regex
      const text = raw.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');

      if (inTrace && STACK.test(text)) {
        return '';
      }
      inTrace = false;
      if (PROXY_WS_ERROR.test(text)) {
        inTrace = true;
        closedSockets += 1;

        return '';
      }
      const progress = PROGRESS.exec(text);

      if (progress) {
        const decile = Math.floor(Number(progress[3]) / 10);

        if (decile === lastDecile) {
          return '';
        }
        lastDecile = decile === 10 ? -1 : decile;

        return `[os-upgrades] compiling: ${ decile * 10 }%`;
      }

      return raw;
    },
    closedSockets: () => closedSockets,
  };
}

// As a filter between `yarn dev` and the terminal.
if (import.meta.url === `file://${ process.argv[1] }`) {
  const filter = devOutputFilter();
  let rest = '';

  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    const lines = (rest + chunk).split(/\r\n|\r|\n/);

    rest = lines.pop() ?? '';
    for (const line of lines) {
      const out = filter.line(line);

      if (out) {
        process.stdout.write(`${ out }\n`);
      }
    }
  });
  process.stdin.on('end', () => {
    const out = rest ? filter.line(rest) : '';

    if (out) {
      process.stdout.write(`${ out }\n`);
    }
    if (filter.closedSockets()) {
      process.stdout.write(`[os-upgrades] ${ filter.closedSockets() } closed browser websockets were not shown\n`);
    }
  });
}
