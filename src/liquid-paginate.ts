import { Tag, type Context, type Emitter, type Liquid, type Parser, type TagToken, type Template, type TopLevelToken } from 'liquidjs';

/*
 * Shopify's `{% paginate … by N %}` tag for liquidjs, shared by the renderer
 * (src/rendering/liquid/engine.ts, which gives it the page's paginate object) and the theme
 * review's syntax check (src/themes/review/liquid-syntax-thread.ts, which only parses):
 * docs/rendering.md, Pagination.
 */

export type PaginateObject = {
  current_page: number;
  current_offset: number;
  items: number;
  pages: number;
  page_size: number;
  previous?: { title: string; url: string; is_link: true };
  next?: { title: string; url: string; is_link: true };
  parts: { title: string; url: string; is_link: boolean }[];
};

/**
 * The tag: `paginate` is set for its body (from `page`, the render's paginate object, or one page
 * of everything when the page has no listing). The `by` expression is not evaluated again here.
 */
export function paginateTag(paginate: (ctx: Context) => PaginateObject | null) {
  return class PaginateTag extends Tag {
    templates: Template[] = [];
    constructor(token: TagToken, remain: TopLevelToken[], liquid: Liquid, parser: Parser) {
      super(token, remain, liquid);
      if (!/^\s*[\w.[\]'"-]+\s+by\s+\S+/.test(token.args)) throw new Error(`paginate: expected "paginate <array> by <size>", got "${token.args}"`);
      const stream = parser
        .parseStream(remain)
        .on('tag:endpaginate', () => stream.stop())
        .on('template', (tpl: Template) => this.templates.push(tpl))
        .on('end', () => {
          throw new Error(`tag ${token.getText()} not closed`);
        });
      stream.start();
    }
    *render(ctx: Context, emitter: Emitter): Generator<unknown, void, unknown> {
      ctx.push({ paginate: paginate(ctx) ?? { current_page: 1, current_offset: 0, items: 0, pages: 1, page_size: 0, parts: [] } });
      try {
        yield this.liquid.renderer.renderTemplates(this.templates, ctx, emitter);
      } finally {
        ctx.pop();
      }
    }
  };
}
