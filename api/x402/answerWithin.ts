/** `answer`, or a rejection once `ms` have passed without it (the timer never keeps the process alive). */
export function answerWithin<T>(answer: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms).unref();
  });
  return Promise.race([answer, timeout]).finally(() => clearTimeout(timer));
}
