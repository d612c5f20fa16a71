import type { ReplyLanguage } from "./types";
import { joinWith } from "./types";

// With their articles; "sobre" and "por" take them without contraction, so no sentence needs agreement.
const CATEGORIES = {
  food: "la comida",
  service: "el servicio",
  price: "los precios",
  cleanliness: "la limpieza",
  waiting_time: "el tiempo de espera",
  ambience: "el ambiente",
} as const;

/** Spanish replies (usted, greetings without gender). */
export const es: ReplyLanguage = {
  greeting: (name) => (name ? `Hola, ${name}:` : "Hola:"),
  thanks: (critical) =>
    critical ? "Gracias por contarnos lo ocurrido." : "Gracias por dedicar su tiempo a contarnos su visita.",
  critical:
    "Lo que describe nos preocupa mucho: la salud y la seguridad de nuestros clientes son lo primero. Hemos trasladado " +
    "su caso a la dirección, que ya lo está revisando. Le rogamos que se ponga en contacto directamente con nosotros " +
    "para poder hablarlo con usted en persona.",
  complained: (c) => `Lamentamos lo que nos cuenta sobre ${c} y ya lo hemos compartido con el equipo.`,
  lowRating: "Lamentamos que su visita no estuviera a la altura de sus expectativas.",
  praised: (c) => `Nos alegra leer sus palabras sobre ${c}.`,
  closing: (critical) =>
    critical
      ? "Esperamos tener la oportunidad de enmendarlo."
      : "Será un placer recibirle de nuevo y demostrarle que podemos hacerlo mejor.",
  signature: "Un cordial saludo,\nEl equipo",
  category: (c) => CATEGORIES[c],
  list: joinWith("y"),
};
