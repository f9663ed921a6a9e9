import ts from 'typescript';

/*
 * emporium/no-open-key-lookup (issue 21, part 6): a string that may be anything never indexes a
 * plain object. `GRANTS[grant_type]` with `grant_type = 'constructor'` finds Object's constructor
 * (and `__proto__`, `toString`, `hasOwnProperty` the prototype's members), and
 * `out[key] = value` with `key = '__proto__'` replaces the object's prototype.
 *
 * It uses the type checker and reports, in files linted with type information:
 * - `obj[key]` (read or write) where `obj` is a plain object (a string index signature, as
 *   `Record<string, T>`, or an object literal's type) and `key` is an open string (`string`, a
 *   template literal type, or a union with one), looking through `key as Something`;
 * - `key in obj` on such an object.
 * Fine: arrays, tuples, Maps, Sets, class instances, numeric keys, keys of a literal union, and a
 * lookup guarded by `Object.hasOwn(obj, key)` (in the condition of an if, a ternary or `&&`
 * around it, or an earlier `if (!Object.hasOwn(obj, key)) return/throw/continue/break`).
 */

const OPEN_STRING = ts.TypeFlags.Any | ts.TypeFlags.String | ts.TypeFlags.TemplateLiteral | ts.TypeFlags.StringMapping;

/** `key as T`, `key!`, `key satisfies T`, `<T>key`, `(key)`: the expression underneath. */
function unwrap(node) {
  while (['TSAsExpression', 'TSNonNullExpression', 'TSSatisfiesExpression', 'TSTypeAssertion'].includes(node.type)) node = node.expression;
  return node;
}

function isOpenString(type) {
  if (type.isUnion()) return type.types.some(isOpenString);
  return (type.flags & OPEN_STRING) !== 0;
}

/** Whether a type is declared by the project, not by TypeScript's lib or a package (whose interfaces are Map, Headers, …). */
const ownDeclaration = (symbol) => (symbol?.declarations ?? []).some((d) => !d.getSourceFile().fileName.includes('/node_modules/'));

/**
 * A plain object: one with a string index signature (`Record<string, T>`), or the type of an
 * object literal, a type literal, a mapped type (`Record<'a' | 'b', T>`) or one of the project's
 * interfaces. Not an array, tuple, function, class instance or library type (Map, Set, Headers).
 */
function isPlainObject(checker, type) {
  if (type.isUnion() || type.isIntersection()) return type.types.some((t) => isPlainObject(checker, t));
  if (!(type.flags & ts.TypeFlags.Object)) return false;
  if (checker.isArrayType(type) || checker.isTupleType(type)) return false;
  if (type.getCallSignatures().length > 0 || type.getConstructSignatures().length > 0) return false;
  if (checker.getIndexInfoOfType(type, ts.IndexKind.String)) return true;
  const flags = type.objectFlags;
  if (flags & (ts.ObjectFlags.ObjectLiteral | ts.ObjectFlags.Mapped)) return true;
  const symbol = type.aliasSymbol ?? type.symbol;
  if (type.symbol && type.symbol.flags & (ts.SymbolFlags.ObjectLiteral | ts.SymbolFlags.TypeLiteral)) return true;
  return (flags & ts.ObjectFlags.Interface) !== 0 && !(flags & ts.ObjectFlags.Class) && ownDeclaration(symbol);
}

/** `Object.hasOwn(obj, key)` with the lookup's own `obj` and `key` (by source text). */
function isHasOwnCall(node, objText, keyText, source) {
  return (
    node.type === 'CallExpression' &&
    node.callee.type === 'MemberExpression' &&
    !node.callee.computed &&
    node.callee.object.type === 'Identifier' &&
    node.callee.object.name === 'Object' &&
    node.callee.property.name === 'hasOwn' &&
    node.arguments.length === 2 &&
    source.getText(unwrap(node.arguments[0])) === objText &&
    source.getText(unwrap(node.arguments[1])) === keyText
  );
}

/** Whether `test` being true implies the own property (the call itself, or one side of an `&&`). */
function provesOwn(test, objText, keyText, source) {
  if (isHasOwnCall(test, objText, keyText, source)) return true;
  return (
    test.type === 'LogicalExpression' &&
    test.operator === '&&' &&
    (provesOwn(test.left, objText, keyText, source) || provesOwn(test.right, objText, keyText, source))
  );
}

/** Whether `test` being false implies the own property (`!Object.hasOwn(…)`, or one side of an `||`). */
function refutesOwn(test, objText, keyText, source) {
  if (test.type === 'UnaryExpression' && test.operator === '!' && isHasOwnCall(test.argument, objText, keyText, source)) return true;
  return (
    test.type === 'LogicalExpression' &&
    test.operator === '||' &&
    (refutesOwn(test.left, objText, keyText, source) || refutesOwn(test.right, objText, keyText, source))
  );
}

const exits = (statement) =>
  ['ReturnStatement', 'ThrowStatement', 'ContinueStatement', 'BreakStatement'].includes(statement.type) ||
  (statement.type === 'BlockStatement' && statement.body.length > 0 && exits(statement.body[statement.body.length - 1]));

const FUNCTION = new Set(['FunctionDeclaration', 'FunctionExpression', 'ArrowFunctionExpression']);

/** Whether the lookup at `node` runs only once `Object.hasOwn(obj, key)` held. */
function isGuarded(node, objText, keyText, source) {
  let child = node;
  for (let parent = node.parent; parent; child = parent, parent = parent.parent) {
    if (
      (parent.type === 'ConditionalExpression' || parent.type === 'IfStatement') &&
      child === parent.consequent &&
      provesOwn(parent.test, objText, keyText, source)
    )
      return true;
    if (parent.type === 'LogicalExpression' && parent.operator === '&&' && child === parent.right && provesOwn(parent.left, objText, keyText, source))
      return true;
    if (parent.type === 'BlockStatement' || parent.type === 'Program' || parent.type === 'SwitchCase') {
      const body = parent.type === 'SwitchCase' ? parent.consequent : parent.body;
      for (const earlier of body.slice(0, body.indexOf(child))) {
        if (earlier.type === 'IfStatement' && !earlier.alternate && exits(earlier.consequent) && refutesOwn(earlier.test, objText, keyText, source))
          return true;
      }
    }
    if (FUNCTION.has(parent.type)) return false;
  }
  return false;
}

export const noOpenKeyLookup = {
  meta: {
    type: 'problem',
    docs: {
      description: 'A string that may be anything (a client-chosen name) never indexes a plain object: use a Map, Object.hasOwn, or a literal-union key',
    },
    schema: [],
    messages: {
      lookup:
        'A string key ({{key}}) indexes a plain object ({{object}}): a name such as "constructor" or "__proto__" reaches the prototype. Use a Map, guard with Object.hasOwn({{objectText}}, {{keyText}}), or give the key a literal-union type.',
      within: '`in` finds prototype members ("constructor", "toString"): use Object.hasOwn({{objectText}}, {{keyText}}) or a Map/Set.',
    },
  },
  create(context) {
    const services = context.sourceCode.parserServices;
    if (!services?.program) return {}; // linted without type information: nothing to say
    const checker = services.program.getTypeChecker();
    const source = context.sourceCode;
    const typeOf = (node) => checker.getTypeAtLocation(services.esTreeNodeToTSNodeMap.get(node));
    const check = (report, objectNode, keyNode, messageId) => {
      const key = unwrap(keyNode);
      if (key.type === 'Literal' || key.type === 'PrivateIdentifier') return;
      const keyType = typeOf(key);
      if (!isOpenString(keyType)) return;
      const objectType = checker.getNonNullableType(typeOf(objectNode));
      if (!isPlainObject(checker, objectType)) return;
      const objectText = source.getText(unwrap(objectNode));
      const keyText = source.getText(key);
      if (isGuarded(report, objectText, keyText, source)) return;
      context.report({
        node: report,
        messageId,
        data: { key: checker.typeToString(keyType), object: checker.typeToString(objectType).slice(0, 80), objectText, keyText },
      });
    };
    return {
      MemberExpression(node) {
        if (node.computed) check(node, node.object, node.property, 'lookup');
      },
      BinaryExpression(node) {
        if (node.operator === 'in' && node.left.type !== 'PrivateIdentifier') check(node, node.right, node.left, 'within');
      },
    };
  },
};

export default { meta: { name: 'emporium' }, rules: { 'no-open-key-lookup': noOpenKeyLookup } };
