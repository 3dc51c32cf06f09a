# Sourced by the scripts that start an emulator as a Rancher: answers URL SECONDS waits until the URL
# answers 200 (at most SECONDS; 0 asks once), as one waits for a real Rancher's /rancherversion.
# Node, not curl: a fresh machine may have only Node.
answers() {
  node -e '
    const [url, seconds] = process.argv.slice(1);
    const until = Date.now() + Number(seconds) * 1000;
    const poll = () => fetch(url).then((r) => r.ok, () => false).then((ok) => {
      if (ok) process.exit(0);
      if (Date.now() > until) process.exit(1);
      setTimeout(poll, 500);
    });
    poll();' "$1" "$2"
}
