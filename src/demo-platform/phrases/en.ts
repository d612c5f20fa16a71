import type { PhraseBank } from "./types";

export const en: PhraseBank = {
  openers: {
    positive: [
      "What a great find!",
      "We had a lovely evening here.",
      "Absolutely recommended.",
      "One of my favourite spots in town.",
      "Came here for a birthday and loved it.",
    ],
    negative: [
      "Really disappointing visit.",
      "I wanted to like this place, but no.",
      "Not worth it, sadly.",
      "We will not be coming back.",
      "A frustrating experience from start to finish.",
    ],
    mixed: ["Some good, some bad.", "A bit of a mixed bag.", "It was okay overall.", "Decent, but not memorable."],
  },
  aspects: {
    food: {
      positive: [
        "The food was delicious and full of flavour.",
        "Every dish arrived fresh and perfectly cooked.",
        "The pasta was the best I have had in years.",
        "Generous portions and great ingredients.",
      ],
      negative: [
        "The food was bland and lukewarm.",
        "My steak was overcooked and dry.",
        "The fish did not taste fresh at all.",
        "Tiny portions and nothing had any flavour.",
      ],
    },
    service: {
      positive: [
        "The staff were friendly and attentive.",
        "Our waiter was charming and gave great advice.",
        "Service was quick and professional.",
        "The team made us feel really welcome.",
      ],
      negative: [
        "The staff were rude and ignored us.",
        "Our waiter forgot half of our order.",
        "Service was slow and unfriendly.",
        "Nobody seemed to care about the customers.",
      ],
    },
    price: {
      positive: [
        "Prices are very reasonable for the quality.",
        "Great value for money.",
        "Affordable and worth every cent.",
        "The lunch menu is a bargain.",
      ],
      negative: [
        "Far too expensive for what you get.",
        "Overpriced, and the bill had extra charges.",
        "The prices are a rip-off.",
        "Way too pricey for such small plates.",
      ],
    },
    cleanliness: {
      positive: [
        "Everything was spotless, including the bathrooms.",
        "The place is very clean and tidy.",
        "Tables were clean and the kitchen looked immaculate.",
      ],
      negative: [
        "The tables were sticky and dirty.",
        "The bathroom was filthy.",
        "We found a hair in the soup and the floor was dirty.",
      ],
    },
    waiting: {
      positive: [
        "We got a table right away.",
        "The dishes came out in no time.",
        "No waiting at all, even on a Saturday.",
      ],
      negative: [
        "We waited over an hour for our food.",
        "It took forty minutes just to get the menu.",
        "The wait for a table was ridiculous, even with a booking.",
      ],
    },
    ambience: {
      positive: [
        "Cosy atmosphere with nice music.",
        "The terrace is beautiful at sunset.",
        "Lovely decor and a relaxed vibe.",
      ],
      negative: [
        "It was so noisy we could not talk.",
        "The room felt cramped and stuffy.",
        "Loud music and harsh lighting ruined the mood.",
      ],
    },
    location: {
      positive: [
        "Great location in the old town.",
        "Easy to reach and parking is close by.",
        "Perfect spot right next to the station.",
      ],
      negative: [
        "Hard to find and no parking nearby.",
        "The area around it feels unsafe at night.",
        "The entrance is hidden and badly signposted.",
      ],
    },
  },
  closers: {
    positive: ["We will definitely be back!", "Highly recommended.", "Five stars from me.", "Can't wait to return."],
    negative: ["Avoid.", "Never again.", "I would not recommend it.", "Save your money."],
  },
  replies: {
    thanks: [
      "Thank you so much, {name}! We are happy you enjoyed your visit.",
      "Dear {name}, thanks for the kind words, see you soon!",
      "Thanks for your review, {name}. The whole team appreciates it.",
    ],
    apology: [
      "Dear {name}, we are sorry to hear this and will talk to the team.",
      "{name}, thank you for the feedback. Please contact us so we can make it right.",
      "We apologise, {name}. This is not the standard we aim for.",
    ],
  },
  firstNames: [
    "Emma",
    "Oliver",
    "Sophie",
    "James",
    "Grace",
    "Liam",
    "Chloe",
    "Noah",
    "Ava",
    "Jack",
    "Mia",
    "Harry",
    "Ella",
    "Ethan",
  ],
  lastNames: ["Smith", "Brown", "Taylor", "Wilson", "Clarke", "Walker", "Hughes", "Green", "Hall", "Wood"],
  months: [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
  ],
};
