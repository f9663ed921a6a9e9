/*
 * The parameters a route path names, as a type: `'/:id/items/:item_id'` gives
 * `{ id: string; item_id: string }`, a wildcard `*path` a `path`, and a parameter inside an
 * optional `{…}` group an optional one (path-to-regexp's syntax, which @koa/router speaks).
 * The path is read one character at a time; a parameter's name runs while its characters are
 * word characters, so `/:a-:b` and `/:a.:b` name two.
 */
type Letter =
  'a' | 'b' | 'c' | 'd' | 'e' | 'f' | 'g' | 'h' | 'i' | 'j' | 'k' | 'l' | 'm' | 'n' | 'o' | 'p' | 'q' | 'r' | 's' | 't' | 'u' | 'v' | 'w' | 'x' | 'y' | 'z';
type WordChar = Letter | Uppercase<Letter> | '0' | '1' | '2' | '3' | '4' | '5' | '6' | '7' | '8' | '9' | '_' | '$';

/** `[name, rest]`: the parameter name at the start of `S` and what follows it. */
type NameAt<S extends string, Name extends string = ''> = S extends `${infer C}${infer Rest}`
  ? C extends WordChar
    ? NameAt<Rest, `${Name}${C}`>
    : [Name, S]
  : [Name, ''];

/** Required and optional names found in `S`; `Depth` counts the `{` groups open (optional inside one). */
type Scan<
  S extends string,
  Required extends string = never,
  Optional extends string = never,
  Depth extends unknown[] = [],
> = S extends `${infer C}${infer Rest}`
  ? C extends ':' | '*'
    ? NameAt<Rest> extends [infer Name extends string, infer After extends string]
      ? Depth extends []
        ? Scan<After, Required | Name, Optional, Depth>
        : Scan<After, Required, Optional | Name, Depth>
      : never
    : C extends '{'
      ? Scan<Rest, Required, Optional, [...Depth, unknown]>
      : C extends '}'
        ? Scan<Rest, Required, Optional, Depth extends [unknown, ...infer Outer] ? Outer : []>
        : C extends '\\'
          ? Scan<Rest extends `${string}${infer Escaped}` ? Escaped : '', Required, Optional, Depth>
          : Scan<Rest, Required, Optional, Depth>
  : { [K in Required]: string } & { [K in Optional]?: string };

type Flatten<T> = { [K in keyof T]: T[K] };

/** The parameters `Path` names: `PathParams<'/:id/items/:item_id'>` is `{ id: string; item_id: string }`. */
export type PathParams<Path extends string> = Flatten<Scan<Path>>;
