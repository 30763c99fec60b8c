/** Types for json-logic-js 2.x (the package ships none); only what Reprise calls. */
declare module 'json-logic-js' {
  const jsonLogic: {
    apply(logic: unknown, data?: unknown): unknown;
    truthy(value: unknown): boolean;
    is_logic(logic: unknown): boolean;
    rm_operation(name: string): void;
    add_operation(name: string, code: (this: unknown, ...args: unknown[]) => unknown): void;
  };
  export default jsonLogic;
}
