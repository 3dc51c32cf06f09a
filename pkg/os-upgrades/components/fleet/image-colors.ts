// One colour per image name, the same on every chart of the overview (light and dark theme alike).
const HUES = [210, 140, 30, 280, 0, 180, 60, 320, 100, 240];

export function imageColor(name: string): string {
  let hash = 0;

  for (let i = 0; i < name.length; i++) {
    hash = (hash * 31 + name.charCodeAt(i)) >>> 0;
  }

  return name ? `hsl(${ HUES[hash % HUES.length] }, 55%, 50%)` : 'var(--muted)';
}
