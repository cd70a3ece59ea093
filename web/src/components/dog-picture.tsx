import { useEffect, useState } from 'react';
import { z } from 'zod';

const dogSchema = z.object({ message: z.string().regex(/^https?:\/\//i) });

/** A random dog while the results brew (docs/product-rules.md, Results and history). Any failure: no picture, nothing else. */
export function DogPicture({ api }: { api: string | null }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!api) return;
    const controller = new AbortController();
    fetch(api, { signal: controller.signal })
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(`status ${response.status}`))))
      .then((json: unknown) => {
        const parsed = dogSchema.safeParse(json);
        if (parsed.success) setUrl(parsed.data.message);
        else console.info('The dog picture service answered something else; no picture.');
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) console.info('No dog picture this time:', error);
      });
    return () => controller.abort();
  }, [api]);
  if (!url) return null;
  return (
    <img
      src={url}
      alt="A random dog to keep you company while you wait"
      onError={() => setUrl(null)}
      className="mx-auto h-48 w-full max-w-xs rounded-2xl object-cover shadow-md sm:h-56"
      data-testid="dog-picture"
    />
  );
}
