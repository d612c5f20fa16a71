import type { RawReview } from "./model";

/**
 * A deterministic generator of restaurant reviews in en, es and de (same seed, same reviews), for the
 * demo data, the tests and the benchmark. Texts combine real-sounding positive and negative phrases
 * about food, service, price, cleanliness, waiting time and ambience.
 */
type Lang = "en" | "es" | "de";
type Tone = "pos" | "neg";

const PHRASES: Record<Lang, Record<Tone, string[]>> = {
  en: {
    pos: [
      "The food was delicious and the portions were generous.",
      "Our waiter was very friendly and attentive.",
      "Great value for money, the prices are fair.",
      "The restaurant was spotless, even the restrooms were clean.",
      "Our dishes arrived quickly, no waiting at all.",
      "Lovely atmosphere with a cozy terrace and nice music.",
      "The pasta was fresh and full of flavour.",
      "The staff made us feel welcome from the first minute.",
      "Best pizza in town, I highly recommend it.",
    ],
    neg: [
      "The food was cold and bland.",
      "The waiter was rude and ignored us for most of the evening.",
      "Way too expensive for what you get, totally overpriced.",
      "The tables were sticky and the bathroom was dirty.",
      "We waited 45 minutes for our main course.",
      "It was so noisy we could not hear each other.",
      "My steak was overcooked and the fries were soggy.",
      "I found a hair in my soup, disgusting.",
      "Service was slow and they forgot our drinks.",
    ],
  },
  es: {
    pos: [
      "La comida estaba riquísima y las raciones eran generosas.",
      "El camarero fue muy amable y atento.",
      "Muy buena relación calidad precio, precios razonables.",
      "El local estaba impecable y los baños limpios.",
      "Los platos llegaron rápido, sin esperas.",
      "Ambiente acogedor, la terraza es preciosa.",
      "La paella estaba deliciosa, volveremos seguro.",
      "El personal nos trató genial desde el principio.",
    ],
    neg: [
      "La comida llegó fría y sosa.",
      "El camarero fue maleducado y nos ignoró.",
      "Demasiado caro para lo que ofrecen, una estafa.",
      "Las mesas estaban sucias y el baño daba asco, muy sucio.",
      "Esperamos 50 minutos por los segundos platos.",
      "Había muchísimo ruido, el local es muy ruidoso.",
      "La carne estaba quemada y el postre mediocre.",
      "Encontré un pelo en la sopa, asqueroso.",
    ],
  },
  de: {
    pos: [
      "Das Essen war sehr lecker und die Portionen großzügig.",
      "Die Bedienung war herzlich und aufmerksam.",
      "Preis-Leistung stimmt, die Preise sind fair.",
      "Alles war blitzsauber, auch die Toiletten.",
      "Das Essen kam schnell, keine Wartezeit.",
      "Gemütliches Ambiente und eine schöne Terrasse.",
      "Das Schnitzel war knusprig und frisch, absolut empfehlenswert.",
      "Das Personal war sehr freundlich und hilfsbereit.",
    ],
    neg: [
      "Das Essen war kalt und fad.",
      "Der Kellner war unfreundlich und hat uns ignoriert.",
      "Viel zu teuer für das Gebotene, total überteuert.",
      "Die Tische waren klebrig und die Toilette schmutzig.",
      "Wir haben 40 Minuten auf das Essen gewartet.",
      "Es war extrem laut, man konnte sich nicht unterhalten.",
      "Das Steak war zäh und die Pommes fettig.",
      "Ich habe ein Haar im Salat gefunden, ekelhaft.",
    ],
  },
};

const CLOSERS: Record<Lang, Record<Tone, string[]>> = {
  en: {
    pos: ["We will definitely come back!", "Highly recommended."],
    neg: ["Very disappointed.", "We will not come back."],
  },
  es: { pos: ["¡Volveremos sin duda!", "Muy recomendable."], neg: ["Una decepción total.", "No volveremos."] },
  de: {
    pos: ["Wir kommen gerne wieder!", "Sehr empfehlenswert."],
    neg: ["Sehr enttäuscht.", "Wir kommen nicht wieder."],
  },
};

const OPENERS: Record<Lang, { occasions: string[]; template: (occasion: string, people: number) => string }> = {
  en: {
    occasions: [
      "a birthday",
      "a business lunch",
      "a family dinner",
      "date night",
      "a weekday lunch",
      "Sunday brunch",
      "an anniversary",
      "a team dinner",
    ],
    template: (o, n) => `We came for ${o} with ${n} people.`,
  },
  es: {
    occasions: [
      "un cumpleaños",
      "una comida de trabajo",
      "una cena familiar",
      "una cita",
      "un almuerzo entre semana",
      "el brunch del domingo",
      "un aniversario",
      "una cena de equipo",
    ],
    template: (o, n) => `Fuimos por ${o}, éramos ${n}.`,
  },
  de: {
    occasions: [
      "einen Geburtstag",
      "ein Geschäftsessen",
      "ein Familienessen",
      "ein Date",
      "ein Mittagessen unter der Woche",
      "den Sonntagsbrunch",
      "einen Jahrestag",
      "ein Teamessen",
    ],
    template: (o, n) => `Wir waren für ${o} da, zu ${n} Personen.`,
  },
};

const DETAILS: Record<Lang, { dishes: string[]; days: string[]; template: (dish: string, day: string) => string }> = {
  en: {
    dishes: [
      "lasagne",
      "risotto",
      "pizza margherita",
      "tiramisu",
      "grilled fish",
      "burger",
      "carbonara",
      "house salad",
    ],
    days: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
    template: (d, w) => `I ordered the ${d} on ${w}.`,
  },
  es: {
    dishes: [
      "la lasaña",
      "el risotto",
      "la pizza margarita",
      "el tiramisú",
      "el pescado a la plancha",
      "la hamburguesa",
      "la carbonara",
      "la ensalada de la casa",
    ],
    days: ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"],
    template: (d, w) => `Pedí ${d} el ${w}.`,
  },
  de: {
    dishes: [
      "die Lasagne",
      "das Risotto",
      "die Pizza Margherita",
      "das Tiramisu",
      "den gegrillten Fisch",
      "den Burger",
      "die Carbonara",
      "den Haussalat",
    ],
    days: ["Montag", "Dienstag", "Mittwoch", "Donnerstag", "Freitag", "Samstag", "Sonntag"],
    template: (d, w) => `Ich hatte ${d} am ${w}.`,
  },
};

const NAMES = ["Alex", "Maria", "Jonas", "Lucía", "Sam", "Hannah", "Carlos", "Emma", "Lukas", "Sofía", "Noah", "Lena"];

/** mulberry32: a small seeded random generator, so the same seed gives the same reviews. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rand: () => number, list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;

export interface GenerateOptions {
  count: number;
  seed?: number;
  /** First publication day; reviews spread over `months` months after it. */
  start?: Date;
  months?: number;
  idPrefix?: string;
  /** Share of exact duplicates (re-posted reviews) mixed in, 0..1. */
  duplicateShare?: number;
}

/** Generates reviews; ids are `${idPrefix}${n}` unless an idFactory is wanted by the caller. */
export function generateReviews(opts: GenerateOptions): RawReview[] {
  const rand = seededRandom(opts.seed ?? 42);
  const start = (opts.start ?? new Date("2026-01-01T00:00:00Z")).getTime();
  const span = (opts.months ?? 6) * 30 * 86_400_000;
  const out: RawReview[] = [];
  for (let i = 0; i < opts.count; i++) {
    const previous = out[out.length - 1];
    if (previous && rand() < (opts.duplicateShare ?? 0)) {
      out.push({ ...previous, id: `${opts.idPrefix ?? "r"}${i}` });
      continue;
    }
    const language: Lang = rand() < 0.5 ? "en" : rand() < 0.5 ? "es" : "de";
    // Ratings lean positive, like real platforms; later months get slightly better (a visible trend).
    const when = start + Math.floor(rand() * span);
    const drift = (when - start) / span;
    const r = rand() + drift * 0.15;
    const rating = r < 0.12 ? 1 : r < 0.22 ? 2 : r < 0.35 ? 3 : r < 0.65 ? 4 : 5;
    const parts: string[] = [];
    if (rand() < 0.85)
      parts.push(OPENERS[language].template(pick(rand, OPENERS[language].occasions), 2 + Math.floor(rand() * 11)));
    const n = 1 + Math.floor(rand() * 3);
    for (let k = 0; k < n; k++) {
      const tone: Tone =
        rating >= 4
          ? rand() < 0.9
            ? "pos"
            : "neg"
          : rating <= 2
            ? rand() < 0.9
              ? "neg"
              : "pos"
            : rand() < 0.5
              ? "pos"
              : "neg";
      const phrase = pick(rand, PHRASES[language][tone]);
      if (!parts.includes(phrase)) parts.push(phrase);
    }
    if (rand() < 0.7)
      parts.push(DETAILS[language].template(pick(rand, DETAILS[language].dishes), pick(rand, DETAILS[language].days)));
    if (rand() < 0.5) parts.push(pick(rand, CLOSERS[language][rating >= 3 ? "pos" : "neg"]));
    // Busier evenings and weekends: move most reviews to 12-14h or 19-23h.
    const date = new Date(when);
    const hour = rand() < 0.7 ? pick(rand, [12, 13, 14, 19, 20, 21, 22]) : Math.floor(rand() * 24);
    date.setUTCHours(hour, Math.floor(rand() * 60), 0, 0);
    out.push({
      id: `${opts.idPrefix ?? "r"}${i}`,
      author: pick(rand, NAMES),
      rating,
      text: parts.join(" "),
      language,
      publishedAt: date,
    });
  }
  return out;
}
