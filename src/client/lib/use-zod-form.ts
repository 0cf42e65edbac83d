import { useCallback, useEffect, useState, type FormEvent } from "react";
import type { z } from "zod";

export type FieldErrors<T> = Partial<Record<keyof T & string, string>>;

/**
 * A small form state holder validated by a shared zod schema, so the client shows exactly the
 * spec's messages (§5). Errors appear after the first submit and then follow every change.
 */
export function useZodForm<Schema extends z.ZodType<Record<string, unknown>>>(schema: Schema, initialValues: z.input<Schema>) {
  type Values = z.input<Schema>;
  const [values, setValues] = useState<Values>(initialValues);
  const [errors, setErrors] = useState<FieldErrors<Values>>({});
  const [submitted, setSubmitted] = useState(false);

  const validate = useCallback(
    (candidate: Values) => {
      const result = schema.safeParse(candidate);
      if (result.success) return { data: result.data as z.output<Schema>, errors: {} as FieldErrors<Values> };
      const found: FieldErrors<Values> = {};
      for (const issue of result.error.issues) {
        const key = String(issue.path[0] ?? "") as keyof Values & string;
        if (key && !found[key]) found[key] = issue.message;
      }
      return { data: null, errors: found };
    },
    [schema],
  );

  // After the first submit, messages follow the values as the user corrects them.
  useEffect(() => {
    if (submitted) setErrors(validate(values).errors);
  }, [submitted, validate, values]);

  const setValue = useCallback(<K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((previous) => ({ ...(previous as Record<string, unknown>), [key]: value }) as Values);
  }, []);

  /** Wraps a submit handler: it runs only with valid, parsed values. */
  const handleSubmit = useCallback(
    (onValid: (data: z.output<Schema>) => unknown) => (event: FormEvent) => {
      event.preventDefault();
      setSubmitted(true);
      const result = validate(values);
      setErrors(result.errors);
      if (result.data) return onValid(result.data);
    },
    [validate, values],
  );

  const reset = (next: Values = initialValues) => {
    setValues(next);
    setErrors({});
    setSubmitted(false);
  };

  return { values, setValue, errors, handleSubmit, reset };
}
