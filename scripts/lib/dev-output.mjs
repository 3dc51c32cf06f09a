// Filters `yarn dev` (vue-cli-service serve) for a person at a terminal, one line per event:
// - webpack's progress lines ("[10%] building …", one per module) become one note every 10 percent;
// - the stack traces the shell's proxy and http-proxy-middleware print when a browser tab closes
//   its websocket ("Proxy WS Error: …" and "[HPM] WebSocket error: …", with EPIPE, ECONNRESET or
//   "socket has been ended by the other party" anywhere in the trace) are dropped, said once and
//   counted at the end: nothing went wrong;
// - "Unknown Web socket upgrade request for /ws" is dropped: /ws is the dev server's own live-reload
//   socket, which webpack-dev-server answers itself (the shell's proxy only says it is not one of its paths);
// - vue-cli's status lines, which put the time right after the text when not on a TTY
//   ("DONE  Compiled successfully in 59324ms10:07:31 PM"), get a space before the time.
// Everything else is kept, other errors with their traces. DEV_OUTPUT=raw in scripts/run shows all.

const PROGRESS = /^\s*(<s>\s*)?(\[webpack\.Progress\]\s*)?\[?(\d{1,3})%\]?\s/;
const WS_ERROR = /^(Proxy WS Error:|\[HPM\] WebSocket error:)/;
const CLOSED_SOCKET = /\b(EPIPE|ECONNRESET)\b|socket has been ended by the other party/;
const TRACE = /^\s+at\s|^\s*\{?\s*(errno|code|syscall)\s*:|^\s*\}\s*$/;
const OWN_LIVE_RELOAD = /^Unknown Web socket upgrade request for \/ws\/?$/;
const STATUS_TIME = /^(\s*(?:DONE|WAIT|INFO|WARN|ERROR)\s.*?\S)(\d{1,2}:\d{2}:\d{2}(?:\s?[AP]M)?)\s*$/;

// eslint-disable-next-line no-control-regex
const plain = (raw) => raw.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');

/** A line filter with its own state: `line` returns the lines to print for one line of input. */
export function devOutputFilter() {
  let lastDecile = -1;
  /** The websocket error being read, line by line, until its trace ends. */
  let trace = null;
  let closedSockets = 0;

  /** The trace read so far: dropped when it is a closed socket's, else printed as it came. */
  function endTrace() {
    const lines = trace ?? [];

    trace = null;
    if (CLOSED_SOCKET.test(lines.map(plain).join('\n'))) {
      closedSockets += 1;

      return closedSockets === 1 ? ['[os-upgrades] a browser tab closed its websocket: such stack traces are not shown (DEV_OUTPUT=raw shows them)'] : [];
    }

    return lines;
  }

  function one(raw) {
    const text = plain(raw);

    if (trace && TRACE.test(text)) {
      trace.push(raw);

      return [];
    }
    const before = trace ? endTrace() : [];

    if (WS_ERROR.test(text)) {
      trace = [raw];

      return before;
    }
    if (OWN_LIVE_RELOAD.test(text)) {
      return before;
    }
    const progress = PROGRESS.exec(text);

    if (progress) {
      const decile = Math.floor(Number(progress[3]) / 10);

      if (decile === lastDecile) {
        return before;
      }
      lastDecile = decile === 10 ? -1 : decile;

      return [...before, `[os-upgrades] compiling: ${ decile * 10 }%`];
    }
    const status = STATUS_TIME.exec(text);

    return [...before, status ? `${ status[1] } ${ status[2] }` : raw];
  }

  return {
    line: one,
    /** At the end of the input: what is left of a trace. */
    end: () => (trace ? endTrace() : []),
    closedSockets: () => closedSockets,
  };
}

// As a filter between `yarn dev` and the terminal.
if (import.meta.url === `file://${ process.argv[1] }`) {
  const filter = devOutputFilter();
  const print = (lines) => lines.forEach((out) => process.stdout.write(`${ out }\n`));
  let rest = '';
  let quiet;

  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (chunk) => {
    const lines = (rest + chunk).split(/\r\n|\r|\n/);

    rest = lines.pop() ?? '';
    lines.forEach((line) => print(filter.line(line)));
    // A trace is complete once the dev server pauses: an error that is not a closed socket is not held back.
    clearTimeout(quiet);
    quiet = setTimeout(() => print(filter.end()), 300);
  });
  process.stdin.on('end', () => {
    clearTimeout(quiet);
    if (rest) {
      print(filter.line(rest));
    }
    print(filter.end());
    if (filter.closedSockets()) {
      print([`[os-upgrades] ${ filter.closedSockets() } stack traces of closed browser websockets were not shown`]);
    }
  });
}
