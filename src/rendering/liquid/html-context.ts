/**
 * Where the next character of an HTML document being written lands: text, raw text (inside
 * `<script>` or `<style>`), a tag (between attributes, or an unquoted value), a quoted attribute
 * value, or a comment. The Liquid renderer follows its own output with it, so a value whose safe
 * form depends on where it lands (the `json` filter's) is encoded for that place
 * (docs/rendering.md, Escaping). It reads each character once; it is a tokenizer's state, not a
 * parser: markup it does not follow falls back to the strictest encoding.
 */
export type HtmlPlace = 'text' | 'rawtext' | 'tag' | 'attribute-double' | 'attribute-single' | 'comment';

type State = 'text' | 'tag-open' | 'tag-name' | 'in-tag' | 'after-equals' | 'unquoted' | 'double' | 'single' | 'rawtext' | 'bang' | 'comment';

const RAWTEXT_ELEMENTS = new Set(['script', 'style']);
const isSpace = (c: string) => c === ' ' || c === '\n' || c === '\t' || c === '\r' || c === '\f';
const isLetter = (c: string) => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');

export class HtmlContext {
  private state: State = 'text';
  private name = '';
  private closing = false;
  /** Inside raw text: the element whose end tag ends it. */
  private rawtext = '';
  /** The end of the text seen so far, enough to find `</script` or `-->` across writes. */
  private tail = '';

  get place(): HtmlPlace {
    switch (this.state) {
      case 'text':
        return 'text';
      case 'rawtext':
        return 'rawtext';
      case 'double':
        return 'attribute-double';
      case 'single':
        return 'attribute-single';
      case 'comment':
      case 'bang':
        return 'comment';
      default:
        return 'tag';
    }
  }

  write(chunk: string): void {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i]!;
      switch (this.state) {
        case 'text':
          if (c === '<') this.state = 'tag-open';
          break;
        case 'tag-open':
          if (isLetter(c) || c === '/') {
            this.state = 'tag-name';
            this.closing = c === '/';
            this.name = c === '/' ? '' : c.toLowerCase();
          } else if (c === '!') {
            this.state = 'bang';
            this.tail = '';
          } else this.state = c === '<' ? 'tag-open' : 'text';
          break;
        case 'tag-name':
          if (c === '>') this.endTag();
          else if (isSpace(c) || c === '/') this.state = 'in-tag';
          else this.name += c.toLowerCase();
          break;
        case 'in-tag':
          if (c === '>') this.endTag();
          else if (c === '=') this.state = 'after-equals';
          else if (c === '"') this.state = 'double';
          else if (c === "'") this.state = 'single';
          break;
        case 'after-equals':
          if (c === '"') this.state = 'double';
          else if (c === "'") this.state = 'single';
          else if (c === '>') this.endTag();
          else if (!isSpace(c)) this.state = 'unquoted';
          break;
        case 'unquoted':
          if (c === '>') this.endTag();
          else if (isSpace(c)) this.state = 'in-tag';
          break;
        case 'double':
          if (c === '"') this.state = 'in-tag';
          break;
        case 'single':
          if (c === "'") this.state = 'in-tag';
          break;
        case 'bang':
          this.tail += c;
          if (this.tail === '--') this.state = 'comment';
          else if (c === '>') this.state = 'text';
          break;
        case 'comment':
          this.tail = (this.tail + c).slice(-3);
          if (this.tail === '-->') this.state = 'text';
          break;
        case 'rawtext':
          this.tail = (this.tail + c).slice(-(this.rawtext.length + 2));
          if (this.tail.toLowerCase() === `</${this.rawtext}`) {
            this.state = 'tag-name';
            this.closing = true;
            this.name = this.rawtext;
          }
          break;
      }
    }
  }

  private endTag(): void {
    if (!this.closing && RAWTEXT_ELEMENTS.has(this.name)) {
      this.state = 'rawtext';
      this.rawtext = this.name;
      this.tail = '';
    } else this.state = 'text';
  }
}
