/**
 * Reads a front-coded word list (web/vite.config.ts): each line is the number of leading
 * characters (one digit) shared with the word before it, then the rest of the word.
 */
export function decodeFrontCoded(text: string): string[] {
  const words: string[] = [];
  let previous = '';
  for (const line of text.split('\n')) {
    if (line === '') continue;
    previous = previous.slice(0, Number(line[0])) + line.slice(1);
    words.push(previous);
  }
  return words;
}
