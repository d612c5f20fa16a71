import type { PhraseBank } from "./types";

export const es: PhraseBank = {
  openers: {
    positive: [
      "¡Qué gran descubrimiento!",
      "Pasamos una velada estupenda.",
      "Totalmente recomendable.",
      "Uno de mis sitios favoritos de la ciudad.",
      "Vinimos a celebrar un cumpleaños y nos encantó.",
    ],
    negative: [
      "Una visita muy decepcionante.",
      "Quería que me gustara, pero no.",
      "No merece la pena, por desgracia.",
      "No volveremos.",
      "Una experiencia frustrante de principio a fin.",
    ],
    mixed: [
      "Cosas buenas y cosas malas.",
      "Un poco irregular.",
      "En general, correcto.",
      "Aceptable, pero nada memorable.",
    ],
  },
  aspects: {
    food: {
      positive: [
        "La comida estaba deliciosa y llena de sabor.",
        "Todos los platos llegaron frescos y en su punto.",
        "La paella es la mejor que he probado en años.",
        "Raciones generosas y muy buen producto.",
      ],
      negative: [
        "La comida estaba sosa y tibia.",
        "El filete estaba pasado y seco.",
        "El pescado no parecía nada fresco.",
        "Raciones diminutas y sin ningún sabor.",
      ],
    },
    service: {
      positive: [
        "El personal fue amable y atento.",
        "Nuestro camarero fue encantador y nos aconsejó muy bien.",
        "Servicio rápido y profesional.",
        "El equipo nos hizo sentir como en casa.",
      ],
      negative: [
        "El personal fue maleducado y nos ignoró.",
        "El camarero se olvidó de la mitad del pedido.",
        "El servicio fue lento y antipático.",
        "A nadie parecían importarle los clientes.",
      ],
    },
    price: {
      positive: [
        "Precios muy razonables para la calidad.",
        "Muy buena relación calidad-precio.",
        "Barato y vale cada euro.",
        "El menú del día es una ganga.",
      ],
      negative: [
        "Demasiado caro para lo que ofrecen.",
        "Precios abusivos y cargos extra en la cuenta.",
        "Los precios son un robo.",
        "Carísimo para unos platos tan pequeños.",
      ],
    },
    cleanliness: {
      positive: [
        "Todo estaba impecable, también los baños.",
        "El local está muy limpio y ordenado.",
        "Mesas limpias y una cocina impecable.",
      ],
      negative: [
        "Las mesas estaban pegajosas y sucias.",
        "El baño estaba asqueroso.",
        "Encontramos un pelo en la sopa y el suelo estaba sucio.",
      ],
    },
    waiting: {
      positive: ["Nos dieron mesa enseguida.", "Los platos salieron rapidísimo.", "Sin esperas, incluso un sábado."],
      negative: [
        "Esperamos más de una hora la comida.",
        "Tardaron cuarenta minutos solo en traer la carta.",
        "La espera para una mesa fue ridícula, incluso con reserva.",
      ],
    },
    ambience: {
      positive: [
        "Ambiente acogedor con buena música.",
        "La terraza es preciosa al atardecer.",
        "Decoración bonita y ambiente relajado.",
      ],
      negative: [
        "Había tanto ruido que no podíamos hablar.",
        "El local es pequeño y agobiante.",
        "La música alta y la luz fría arruinaron la noche.",
      ],
    },
    location: {
      positive: [
        "Muy buena ubicación en el casco antiguo.",
        "Fácil de llegar y con aparcamiento cerca.",
        "Sitio perfecto junto a la estación.",
      ],
      negative: [
        "Difícil de encontrar y sin aparcamiento.",
        "La zona da algo de miedo por la noche.",
        "La entrada está escondida y mal señalizada.",
      ],
    },
  },
  closers: {
    positive: ["¡Volveremos seguro!", "Muy recomendable.", "Cinco estrellas.", "Con ganas de volver."],
    negative: ["Evitadlo.", "Nunca más.", "No lo recomiendo.", "No malgastéis vuestro dinero."],
  },
  replies: {
    thanks: [
      "¡Muchas gracias, {name}! Nos alegra que disfrutaras de la visita.",
      "Querido/a {name}, gracias por tus palabras, ¡hasta pronto!",
      "Gracias por tu reseña, {name}. Todo el equipo lo agradece.",
    ],
    apology: [
      "{name}, sentimos mucho lo ocurrido y lo hablaremos con el equipo.",
      "Gracias por tu opinión, {name}. Escríbenos para poder compensarte.",
      "Te pedimos disculpas, {name}. No es el nivel que buscamos.",
    ],
  },
  firstNames: [
    "Lucía",
    "Hugo",
    "Martina",
    "Pablo",
    "Sofía",
    "Álvaro",
    "Carmen",
    "Javier",
    "Elena",
    "Diego",
    "Paula",
    "Mateo",
  ],
  lastNames: ["García", "Fernández", "López", "Martínez", "Sánchez", "Romero", "Navarro", "Torres", "Ruiz", "Díaz"],
  months: [
    "enero",
    "febrero",
    "marzo",
    "abril",
    "mayo",
    "junio",
    "julio",
    "agosto",
    "septiembre",
    "octubre",
    "noviembre",
    "diciembre",
  ],
};
