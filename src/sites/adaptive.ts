import { createRequire } from 'node:module';
import { invalid } from '../kernel/errors.js';

// The adaptive-content schema: a JSON Schema draft-07 whose properties are the visitor's claims
// (booleans, strings, numbers, arrays of those, nested objects), with an `unsigned` object for
// claims the visitor sets unsigned. The contract's request schema checks that shape; here the
// schema is also compiled as draft-07 (ajv), so that it is a schema a renderer can really use.

const require = createRequire(import.meta.url);
let ajv: { compile(s: object): unknown } | undefined;

export function checkAdaptiveSchema(jsonSchema: Record<string, any>): Record<string, any> {
  ajv ??= new (require('ajv').default)({ strict: true, allErrors: false });
  try {
    ajv!.compile(jsonSchema);
  } catch (err) {
    throw invalid(`jsonSchema: not a valid JSON Schema draft-07: ${(err as Error).message}`);
  }
  const checkClaims = (props: Record<string, any>, at: string) => {
    for (const [name, claim] of Object.entries(props)) {
      if (!/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name))
        throw invalid(`jsonSchema.${at}${name}: a claim name must be an identifier (letters, digits, _ or $, not starting with a digit)`);
      if (claim.type === 'object') checkClaims(claim.properties ?? {}, `${at}${name}.properties.`);
    }
  };
  checkClaims(jsonSchema.properties ?? {}, 'properties.');
  return jsonSchema;
}

/** Example conditions for every claim of the schema, as a condition editor would suggest them. */
export function templateConditions(jsonSchema: Record<string, any> | undefined): { description: string; condition: string }[] {
  const out: { description: string; condition: string }[] = [];
  const visit = (props: Record<string, any>, path: string) => {
    for (const [name, claim] of Object.entries(props ?? {})) {
      const ref = `${path}.${name}`;
      const about = claim.description ? ` (${claim.description})` : '';
      if (claim.type === 'object') visit(claim.properties, ref);
      else if (claim.type === 'boolean') {
        out.push({ description: `Visitors for whom ${name} is true${about}`, condition: `${ref} === true` });
        out.push({ description: `Visitors for whom ${name} is not true${about}`, condition: `!${ref}` });
      } else if (claim.type === 'string' && Array.isArray(claim.enum)) {
        for (const v of claim.enum)
          out.push({ description: `Visitors whose ${name} is ${JSON.stringify(v)}${about}`, condition: `${ref} === ${JSON.stringify(v)}` });
      } else if (claim.type === 'string') {
        out.push({ description: `Visitors whose ${name} is a given value${about}`, condition: `${ref} === "value"` });
      } else if (claim.type === 'number') {
        out.push({ description: `Visitors whose ${name} is above a threshold${about}`, condition: `${ref} > 0` });
      } else if (claim.type === 'array') {
        const sample = claim.items?.enum?.[0] ?? (claim.items?.type === 'number' ? 0 : claim.items?.type === 'boolean' ? true : 'value');
        out.push({ description: `Visitors whose ${name} include ${JSON.stringify(sample)}${about}`, condition: `${ref}.includes(${JSON.stringify(sample)})` });
      }
    }
  };
  const { unsigned, ...signed } = jsonSchema?.properties ?? {};
  visit(signed, 'visitor.claims');
  if (unsigned) visit(unsigned.properties, 'visitor.claims.unsigned');
  return out;
}
