import { isMap, isNode, isScalar, isSeq } from 'yaml';
import { ENV_PASSWORD, ENV_USERNAME } from '../exchange/auth/credentials.ts';
import type { ConfigIssue } from './errors.ts';
import { dotted, type YamlSource } from './yaml-source.ts';

/**
 * Keys that would put a secret into the config file. Config files get shared, committed
 * and pasted into tickets; the login lives in the environment or a private credentials
 * file instead. Matched in any letter case and at any depth (strategy params included).
 */
const SECRET_KEYS = new Set(['username', 'password', 'token']);

export function isSecretKey(key: string): boolean {
  return SECRET_KEYS.has(key.toLowerCase());
}

const WHY =
  `credentials never go in the config file: set ${ENV_USERNAME} and ${ENV_PASSWORD} in the environment, ` +
  `or name a private credentials file under venue.credentials.file`;
const WHY_TOKEN =
  'a token never goes in the config file: linesmith logs in with the credentials from the environment ' +
  'or venue.credentials.file, and venue.tokenFile (mode 600) keeps the session token across restarts';

/** One issue per secret key, at the key; the value is never quoted. */
export function secretKeyIssues(src: YamlSource): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const walk = (node: unknown, path: readonly (string | number)[]): void => {
    if (isMap(node)) {
      for (const pair of node.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : String(pair.key);
        if (isSecretKey(key)) {
          const pos = isNode(pair.key) && pair.key.range ? src.lines.linePos(pair.key.range[0]) : { line: 1, col: 1 };
          issues.push({
            file: src.file,
            line: pos.line,
            column: pos.col,
            path: dotted([...path, key]),
            message: key.toLowerCase() === 'token' ? WHY_TOKEN : WHY,
          });
        }
        walk(pair.value, [...path, key]);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => walk(item, [...path, i]));
    }
    // Aliases repeat a node already walked where its anchor is.
  };
  walk(src.doc.contents, []);
  return issues;
}
