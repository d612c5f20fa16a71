import type { Category } from "./taxonomy";

/**
 * The canonical complaint topics of review-analytics (docs/pipelines.md, "Topics"): what guests
 * complain about, named once for every review language. Each topic belongs to one category of the
 * taxonomy, has a readable label per report language (a noun phrase a reader recognises) and the
 * action the report proposes for it (an imperative, completed by "N reviews mention it").
 * The labelled topic evaluation set (eval/topics/) uses these ids.
 */
export interface TopicDefinition {
  category: Category;
  label: { en: string; es: string; de: string };
  action: { en: string; es: string; de: string };
}

export const TOPIC_VOCABULARY = {
  cold_food: {
    category: "food",
    label: { en: "cold food", es: "comida fría", de: "kaltes Essen" },
    action: { en: "Serve dishes hot", es: "Servir los platos calientes", de: "Speisen heiß servieren" },
  },
  bland_food: {
    category: "food",
    label: { en: "bland food", es: "comida sosa", de: "fades Essen" },
    action: {
      en: "Rework the seasoning of the dishes",
      es: "Revisar el sabor y el punto de sal de los platos",
      de: "Die Würzung der Gerichte überarbeiten",
    },
  },
  overcooked_food: {
    category: "food",
    label: { en: "overcooked or burnt food", es: "comida pasada o quemada", de: "verkochtes oder verbranntes Essen" },
    action: {
      en: "Check cooking times so dishes are not overcooked",
      es: "Controlar los tiempos de cocción para no pasar los platos",
      de: "Garzeiten prüfen, damit nichts verkocht",
    },
  },
  undercooked_food: {
    category: "food",
    label: { en: "undercooked food", es: "comida cruda o poco hecha", de: "nicht durchgegartes Essen" },
    action: {
      en: "Check that meat and fish are cooked through",
      es: "Comprobar que la carne y el pescado salen bien hechos",
      de: "Prüfen, dass Fleisch und Fisch durchgegart sind",
    },
  },
  stale_food: {
    category: "food",
    label: { en: "stale or old food", es: "comida pasada o poco fresca", de: "altes oder nicht frisches Essen" },
    action: {
      en: "Serve only fresh ingredients and bread",
      es: "Servir solo producto y pan del día",
      de: "Nur frische Zutaten und frisches Brot servieren",
    },
  },
  small_portions: {
    category: "food",
    label: { en: "small portions", es: "raciones pequeñas", de: "kleine Portionen" },
    action: {
      en: "Review the portion sizes",
      es: "Revisar el tamaño de las raciones",
      de: "Die Portionsgrößen überprüfen",
    },
  },
  foreign_object: {
    category: "food",
    label: {
      en: "hair or objects in the food",
      es: "pelos u objetos en la comida",
      de: "Haare oder Fremdkörper im Essen",
    },
    action: {
      en: "Stop hair and foreign objects reaching the plates",
      es: "Evitar que lleguen pelos y objetos a los platos",
      de: "Haare und Fremdkörper vom Teller fernhalten",
    },
  },
  food_poisoning: {
    category: "food",
    label: { en: "illness after eating", es: "malestar después de comer", de: "Übelkeit nach dem Essen" },
    action: {
      en: "Review food safety and storage in the kitchen",
      es: "Revisar la seguridad alimentaria y la conservación en cocina",
      de: "Lebensmittelsicherheit und Lagerung in der Küche überprüfen",
    },
  },
  rude_staff: {
    category: "service",
    label: { en: "rude staff", es: "personal maleducado", de: "unfreundliches Personal" },
    action: {
      en: "Train the team in courtesy towards guests",
      es: "Formar al equipo en el trato al cliente",
      de: "Das Team im Umgang mit Gästen schulen",
    },
  },
  inattentive_staff: {
    category: "service",
    label: { en: "inattentive staff", es: "personal desatento", de: "unaufmerksame Bedienung" },
    action: {
      en: "Make sure every table is looked after",
      es: "Asegurar que cada mesa esté atendida",
      de: "Sicherstellen, dass jeder Tisch betreut wird",
    },
  },
  wrong_order: {
    category: "service",
    label: {
      en: "wrong or forgotten orders",
      es: "pedidos equivocados u olvidados",
      de: "falsche oder vergessene Bestellungen",
    },
    action: {
      en: "Check orders before they leave the kitchen",
      es: "Comprobar los pedidos antes de servirlos",
      de: "Bestellungen vor dem Servieren prüfen",
    },
  },
  high_prices: {
    category: "price",
    label: { en: "high prices", es: "precios altos", de: "hohe Preise" },
    action: {
      en: "Review prices against what is served",
      es: "Revisar los precios frente a lo que se sirve",
      de: "Preise im Verhältnis zum Gebotenen überprüfen",
    },
  },
  extra_charges: {
    category: "price",
    label: { en: "extra charges", es: "cargos extra", de: "Zusatzkosten" },
    action: {
      en: "Show every extra charge before guests order",
      es: "Indicar cada cargo extra antes de pedir",
      de: "Jeden Aufpreis vor der Bestellung nennen",
    },
  },
  billing_error: {
    category: "price",
    label: { en: "mistakes on the bill", es: "errores en la cuenta", de: "Fehler auf der Rechnung" },
    action: {
      en: "Check every bill before it is handed over",
      es: "Revisar cada cuenta antes de entregarla",
      de: "Jede Rechnung vor der Übergabe prüfen",
    },
  },
  dirty_toilets: {
    category: "cleanliness",
    label: { en: "dirty toilets", es: "baños sucios", de: "schmutzige Toiletten" },
    action: {
      en: "Clean the toilets more often",
      es: "Limpiar los baños con más frecuencia",
      de: "Die Toiletten öfter reinigen",
    },
  },
  dirty_tables: {
    category: "cleanliness",
    label: {
      en: "dirty tables and tableware",
      es: "mesas y vajilla sucias",
      de: "schmutzige Tische und schmutziges Geschirr",
    },
    action: {
      en: "Clean tables, glasses and cutlery before each guest",
      es: "Limpiar mesas, vasos y cubiertos antes de cada cliente",
      de: "Tische, Gläser und Besteck vor jedem Gast reinigen",
    },
  },
  dirty_room: {
    category: "cleanliness",
    label: { en: "dirty rooms", es: "habitaciones sucias", de: "schmutzige Zimmer" },
    action: {
      en: "Check every room after housekeeping",
      es: "Revisar cada habitación después de la limpieza",
      de: "Jedes Zimmer nach der Reinigung kontrollieren",
    },
  },
  pests: {
    category: "cleanliness",
    label: { en: "insects and vermin", es: "insectos y plagas", de: "Ungeziefer" },
    action: {
      en: "Call pest control and seal the entry points",
      es: "Llamar al control de plagas y sellar los accesos",
      de: "Den Kammerjäger rufen und Zugänge abdichten",
    },
  },
  bad_smell: {
    category: "cleanliness",
    label: { en: "bad smells", es: "malos olores", de: "schlechter Geruch" },
    action: {
      en: "Find and remove the source of the smell",
      es: "Localizar y eliminar el origen del olor",
      de: "Die Ursache des Geruchs finden und beseitigen",
    },
  },
  wait_for_table: {
    category: "waiting_time",
    label: { en: "wait for a table", es: "espera para conseguir mesa", de: "Wartezeit auf einen Tisch" },
    action: {
      en: "Shorten the wait for a table",
      es: "Acortar la espera para conseguir mesa",
      de: "Die Wartezeit auf einen Tisch verkürzen",
    },
  },
  slow_food: {
    category: "waiting_time",
    label: { en: "long wait for the food", es: "larga espera por la comida", de: "lange Wartezeit aufs Essen" },
    action: {
      en: "Shorten the wait for the food",
      es: "Acortar la espera por la comida",
      de: "Die Wartezeit aufs Essen verkürzen",
    },
  },
  wait_for_bill: {
    category: "waiting_time",
    label: { en: "wait for the bill", es: "espera para pagar", de: "Wartezeit auf die Rechnung" },
    action: {
      en: "Bring the bill as soon as it is asked for",
      es: "Llevar la cuenta en cuanto se pide",
      de: "Die Rechnung sofort bringen, wenn sie verlangt wird",
    },
  },
  long_queue: {
    category: "waiting_time",
    label: { en: "long queues", es: "colas largas", de: "lange Schlangen" },
    action: {
      en: "Open more counters at busy times",
      es: "Abrir más puestos de atención en las horas punta",
      de: "Zu Stoßzeiten mehr Schalter oder Kassen öffnen",
    },
  },
  noise: {
    category: "ambience",
    label: { en: "noise", es: "ruido", de: "Lärm" },
    action: {
      en: "Reduce the noise and the music volume",
      es: "Reducir el ruido y el volumen de la música",
      de: "Lärm und Musiklautstärke senken",
    },
  },
  room_temperature: {
    category: "ambience",
    label: {
      en: "too hot or too cold inside",
      es: "demasiado calor o frío dentro",
      de: "zu warm oder zu kalt drinnen",
    },
    action: {
      en: "Fix the heating and air conditioning",
      es: "Ajustar la calefacción y el aire acondicionado",
      de: "Heizung und Klimaanlage in Ordnung bringen",
    },
  },
  cramped_seating: {
    category: "ambience",
    label: {
      en: "cramped or uncomfortable seating",
      es: "mesas apretadas o asientos incómodos",
      de: "enge oder unbequeme Plätze",
    },
    action: {
      en: "Give tables more room and seats more comfort",
      es: "Dar más espacio a las mesas y comodidad a los asientos",
      de: "Mehr Platz zwischen den Tischen und bequemere Sitze schaffen",
    },
  },
} as const satisfies Record<string, TopicDefinition>;

export type Topic = keyof typeof TOPIC_VOCABULARY;
export const TOPICS = Object.keys(TOPIC_VOCABULARY) as Topic[];
export const isTopic = (id: string): id is Topic => Object.hasOwn(TOPIC_VOCABULARY, id);
