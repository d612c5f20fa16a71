import type { TopicRules } from "./topic-types";

// Spanish complaint topics (topic-types.ts explains the rule syntax). Written from what guests
// commonly complain about, not from the evaluation set's wording (eval/topics/README.md).

const FOOD =
  "comida|comidas|plato|platos|primero|primeros|segundo|segundos|entrante|entrantes|postre|postres|racion|raciones|tapa|tapas|pincho|pinchos|menu|sopa|crema|pizza|pizzas|pasta|hamburguesa|hamburguesas|carne|filete|solomillo|entrecot|chuleton|pollo|cerdo|cordero|pescado|marisco|gambas|langostinos|calamares|pulpo|arroz|paella|fideua|croqueta|croquetas|patatas|bravas|tortilla|huevos|huevo|pan|bocadillo|bocadillos|tostada|tostadas|cafe|te|cortado|desayuno|desayunos|almuerzo|cena|guiso|estofado|lentejas|cocido|verduras|ensalada|salsa|lasana|sushi|ramen|tacos|burrito|empanada|empanadas|bolleria|croissant|cruasan|pastel|tarta|churros|chocolate|pedido|caldo|puchero|migas|fabada|merluza|bacalao|salmon|lubina|dorada|sepia|chipirones";
const MEAT =
  "pollo|cerdo|carne|hamburguesa|hamburguesas|filete|solomillo|entrecot|chuleton|cordero|pescado|salmon|atun|huevo|huevos|salchicha|salchichas|pechuga|costillas|secreto|presa|lomo";
const WAIT =
  "espera|esperar|esperamos|esperando|esperado|esperaron|tardaron|tardo|tardan|tarda|tardar|tardando|minutos|hora|horas|media hora|tres cuartos de hora|eternidad|eterno|eterna|una vida|lento|lenta|lentos|lentitud|lentisimo|demora|demoraron|retraso|por fin|de pie|plantados";
const ROOM_HEADS =
  "habitacion|habitaciones|cuarto|sabana|sabanas|cama|camas|almohada|almohadas|colcha|edredon|moqueta|alfombra|ducha|lavabo|banera|toalla|toallas|colchon|cortinas|muebles|suelo|paredes|minibar|apartamento|suite|armario|banos de la habitacion|bano de la habitacion|mampara|azulejos";
const TABLEWARE =
  "mesa|mesas|vaso|vasos|copa|copas|cubiertos|cubierto|tenedor|tenedores|cuchillo|cuchillos|cuchara|cucharas|plato|platos|taza|tazas|vajilla|carta|cartas|bandeja|bandejas|servilleta|servilletas|mantel|manteles|trona|tronas|cuenco|cuencos";
const TOILETS = "bano|banos|aseo|aseos|lavabo|lavabos|wc|vater|retrete|retretes|urinario|urinarios|inodoro|inodoros";

export const TOPIC_RULES_ES: TopicRules = {
  turns: ["pero", "aunque", "sin embargo", "sino", "mientras que", "excepto", "salvo"],
  negators: ["no", "nunca", "sin", "ni", "nada de", "ningun", "ninguna", "jamas", "tampoco"],
  topics: {
    cold_food: [
      `frio|fria|frios|frias|fresquito|helado|helada|helados|heladas|tibio|tibia|tibios|tibias|templado|templada|templados|templadas|congelado por dentro|congelada por dentro|sin calentar|mal calentado|mal calentada|mal calentados|mal calentadas|recalentado|ni caliente|nada caliente|poco caliente|del tiempo ~ ${FOOD}`,
    ],
    bland_food: [
      "soso|sosa|sosos|sosas|insipido|insipida|insipidos|insipidas|desabrido|desabrida|sin sabor|sin gracia|sin sal|falto de sal|falta de sal|le faltaba sal|les faltaba sal|faltaba sal|faltaba sabor|aguado|aguada|aguados|aguadas",
      "[no sabia/no sabian/no sabe/no saben/sabia/sabian/sabe] a nada",
      "[nada de/ningun/poco] sabor",
    ],
    overcooked_food: [
      "pasado|pasada|pasados|pasadas|quemado|quemada|quemados|quemadas|requemado|requemada|requemados|requemadas|carbonizado|carbonizada|chamuscado|chamuscada|churruscado|demasiado hecho|demasiado hecha|muy hecho|muy hecha|seco como|como una suela|como suela de zapato|como chicle|correoso|correosa|chicloso|chiclosa|recocido|recocida|pasado de punto|pasada de punto",
      `seco|seca|secos|secas|duro|dura|duros|duras|blando|blanda|blandos|blandas|empapado|empapada|reseco|reseca ~ ${FOOD}`,
    ],
    undercooked_food: [
      "crudo|cruda|crudos|crudas|poco hecho|poco hecha|medio crudo|medio cruda|sin hacer|mal cocinado|mal cocinada|mal hecho|mal hecha|sangrando|rosado por dentro|rosa por dentro|congelado por dentro",
      `rosa|rosado|rosada|sangre|sanguinolento|sanguinolenta ~ ${MEAT}`,
    ],
    stale_food: [
      "rancio|rancia|rancios|rancias|revenido|revenida|mustio|mustia|mustios|mustias|pocho|pocha|pasado de fecha|caducado|caducada|caducados|caducadas|agrio|agria|en mal estado|sabia raro|sabia a viejo",
      "no era fresco|no era fresca|no eran frescos|no eran frescas|nada fresco|nada fresca|poco fresco|poco fresca|de poco fresco",
      "del dia anterior|de ayer|de varios dias|de hace dias|de dias|duro como una piedra|duro como piedra",
      `moho|mohoso|mohosa|enmohecido|recalentado|recalentada|recalentados|recalentadas|microondas|precocinado|precocinada|precocinados|congelado|congelados|de bolsa|de sobre|viejo|vieja|duro ~ ${FOOD}`,
    ],
    small_portions: [
      `pequena|pequenas|pequeno|pequenos|escasa|escasas|escaso|escasos|minuscula|minusculas|ridicula|ridiculas|ridiculo|miserable|miserables|rácana|racana|racanas|diminuta|diminutas|de juguete|enana|enanas|cortas|corta|justita|justitas ~ racion|raciones|porcion|porciones|cantidad|cantidades|plato|platos|tapa|tapas|media racion`,
      "te quedas con hambre|nos quedamos con hambre|me quede con hambre|salimos con hambre|sales con hambre|con hambre|para un pajarito|para un nino|dos bocados|tres bocados|un bocado|cuatro cosas",
    ],
    foreign_object: [
      `pelo|pelos|cristal|cristales|vidrio|plastico|metal|alambre|tirita|una una|una uña|pestana|grapa|hueso|piedra|piedrecita|cascara|cascaras|trozo de plastico|trozo de cristal ~ ${FOOD}|boca|bocado`,
    ],
    food_poisoning: [
      "intoxicacion|intoxicado|intoxicada|intoxicados|intoxicadas|vomitos|vomitando|vomite|vomitamos|vomito|diarrea|diarreas|gastroenteritis|dolor de estomago|dolor de barriga|retortijones|malestar|nauseas|descomposicion|indigestion",
      "[me puse/nos pusimos/se puso/se pusieron/acabamos/acabe/terminamos] [malo/mala/malos/malas/enfermo/enferma/enfermos/enfermas]",
      "[me sento/nos sento/les sento/le sento] fatal",
    ],
    rude_staff: [
      "maleducado|maleducada|maleducados|maleducadas|mal educado|mal educada|grosero|grosera|groseros|groseras|borde|bordes|antipatico|antipatica|antipaticos|antipaticas|desagradable|desagradables|prepotente|prepotentes|se puso chulo|se puso chula|chulesco|arrogante|arrogantes|altivo|altiva|despectivo|despectiva|cortante|mal humor|malhumorado|malhumorada|de malas maneras|malas maneras|malos modos|de malos modos|mala educacion|falta de respeto|faltas de respeto|nos grito|nos gritaron|nos grito|nos hablo mal|nos contesto mal|nos contestaba|contesto mal|nos echo|nos echaron|bufidos|resoplando|resoplo|poniendo caras|puso mala cara|mala cara|mal trato|malos tratos|nos trataron fatal|nos trato fatal|trato pesimo|trato nefasto",
    ],
    inattentive_staff: [
      "nadie nos hacia caso|nadie nos hizo caso|no nos hacian caso|no nos hicieron caso|ni caso|pasaban de nosotros|pasan de ti|pasaron de nosotros|nos ignoraron|nos ignoro|ignorados|ignoradas|nadie vino|nadie venia|nadie paso|nadie se acerco|no se acerco nadie|no vino nadie|no paso nadie|ni nos miraban|ni nos miraron|ni nos miro|desatento|desatenta|desatentos|desatentas|despistado|despistada|despistados|olvidados|nos olvidaron|se olvidaron de nosotros|falta de personal|poco personal|faltaba personal|un solo camarero|una sola camarera|tuvimos que ir a la barra|tuvimos que levantarnos|levantarnos a pedir|ir a la barra a pedir|hablando entre ellos|con el movil|mirando el movil|dejamos de esperar",
      `[pedimos/pedi/pedir/llamamos/llamar] _? [tres veces/dos veces/varias veces/mil veces/otra vez] ~ carta|agua|pedido|camarero|camarera|alguien|postre|atencion`,
    ],
    wrong_order: [
      "pedido equivocado|plato equivocado|equivocaron|se equivocaron|se equivoco|confundieron|confundio|nos trajeron otro|me trajeron otro|no era lo que pedi|no era lo que pedimos|no lo habiamos pedido|nunca llego|nunca llegaron|no llego|no llegaron|se olvidaron|se olvido|olvidaron",
      "[pedi/pedimos/pedido/pidio/pidieron] _? _? _? [y me trajeron/y nos trajeron/y trajeron/me trajeron/nos trajeron/y vino/y llego/y sirvieron]",
      "en vez de|en lugar de",
    ],
    high_prices: [
      "caro|cara|caros|caras|carisimo|carisima|carisimos|carisimas|carillo|carillos|carete|sablazo|clavada|clavaron|nos clavaron|atraco|robo|un robo|estafa|timo|abusivo|abusivos|abusiva|abusivas|desorbitado|desorbitados|desorbitada|excesivo|excesivos|excesiva|por las nubes|precio de oro|a precio de oro|pasados de precio|pasado de precio|sobrevalorado",
      "precio|precios ~ alto|altos|alta|desorbitado|desorbitados|excesivo|excesivos|abusivo|abusivos|elevado|elevados|ridiculo|locura|disparatado|disparatados|exagerado|exagerados|broma",
      "no vale lo que cuesta|no merece la pena|no vale la pena|mala relacion calidad precio|relacion calidad precio mala|relacion calidad precio pesima|calidad precio nefasta|calidad precio pesima|calidad precio mala",
    ],
    extra_charges: [
      "suplemento|suplementos|cargo extra|cargos extra|recargo|recargos|servicio de mesa|cubiertos cobrados|propina obligatoria|propina incluida|tasa|tasas|comision|cargo adicional|cargos adicionales|cobro adicional",
      "cobraron|cobran|cobrar|cobro|cobrado|cobrando|pagar aparte|se paga aparte|extra ~ pan|agua|aperitivo|aperitivos|aceite|aceitunas|terraza|tarjeta|salsa|salsas|mantequilla|hielo|servicio|cubierto|picoteo|por persona|por cabeza",
    ],
    billing_error: [
      "nos cobraron de mas|me cobraron de mas|cobrado de mas|cobraron de mas|cobraron dos veces|cobrado dos veces|cuenta equivocada|cuenta mal|error en la cuenta|errores en la cuenta|la cuenta estaba mal|la cuenta mal|cambio mal|nos dieron mal el cambio",
      `cuenta|ticket|factura|cobraron|cobrado|cobraban ~ no pedimos|no pedi|no habiamos pedido|no tomamos|no tomé|no tome|solo tomamos|de mas|equivocada|equivocado|error|mal`,
    ],
    dirty_toilets: [
      `sucio|sucia|sucios|sucias|asqueroso|asquerosa|asquerosos|asquerosas|asco|un asco|daba asco|mugriento|mugrienta|mugre|guarro|guarra|guarros|cochino|cochina|cochambroso|cochambrosa|sin papel|sin jabon|no habia papel|no habia jabon|encharcado|encharcada|inundado|inundada|atascado|atascada|atascados|roto|rota|estropeado|apestaba|apesta|olia fatal|olia mal|pestilente|lamentable|penoso|penosa|sin limpiar|dejaba mucho que desear ~ ${TOILETS}`,
    ],
    dirty_tables: [
      `sucio|sucia|sucios|sucias|pegajoso|pegajosa|pegajosos|pegajosas|grasiento|grasienta|grasientos|grasientas|mugriento|mugrienta|manchado|manchada|manchados|manchadas|manchas|marcas|pintalabios|restos|migas|sin limpiar|sin recoger|cerco|cercos|mal lavado|mal lavados|mal lavada|mal lavadas ~ ${TABLEWARE}`,
      "nadie recogio|nadie limpio|no limpiaron la mesa|no recogieron la mesa",
    ],
    dirty_room: [
      `sucio|sucia|sucios|sucias|manchado|manchada|manchados|manchadas|manchas|mancha|polvo|pelos|pelo|moho|mugre|mugriento|mugrienta|asqueroso|asquerosa|sin limpiar|no habian limpiado|no limpiaron|nadie limpio|restos|sangre|usadas|usados|un asco|asco ~ ${ROOM_HEADS}`,
      "no limpiaron la habitacion|no nos limpiaron la habitacion|no hicieron la habitacion|limpieza de la habitacion nula|limpieza nula|limpieza pesima|limpieza deficiente|la limpieza brillaba por su ausencia",
    ],
    pests: [
      "cucaracha|cucarachas|raton|ratones|rata|ratas|cagarrutas|excrementos|chinche|chinches|hormigas|gusano|gusanos|larvas|bichos|bichitos|plaga|plagas|moscas|mosquitos|insecto|insectos|polillas|pulgas",
    ],
    bad_smell: [
      "olor|olores|olia|huele|olian|huelen|peste|pestazo|apestaba|apesta|apestaban|hedor|tufo|tufillo|olor a humedad|olor a cloaca|olor a alcantarilla|olor a tabaco|olor a cerrado",
    ],
    wait_for_table: [
      `${WAIT} ~ mesa|una mesa|mesa libre|sentarnos|sentar|sentaron|sentarse|sentados|reserva|reservado|reservada|reservamos|la mesa no|en la entrada|en la puerta|en la calle|en la barra`,
      "[mesa/la mesa] [no estaba/no estaban/sin] [lista/preparada/libre/montada]",
      "sin mesa pese a|sin mesa a pesar",
    ],
    slow_food: [
      `${WAIT} ~ ${FOOD}|pedir|pedido|pedimos|comer|cocina|servir|sirvieron|servido|sacar|sacaron|traer|trajeron|llegar|llego|llegaron|salio|salieron`,
    ],
    wait_for_bill: [`${WAIT}|pedimos|pedir|pedi ~ cuenta|la cuenta|pagar|cobrar|cobrarnos|datafono|ticket|pago`],
    long_queue: [
      "hacer cola|haciendo cola|hicimos cola|hacer fila|haciendo fila|colas enormes|cola enorme|larga cola|largas colas|mucha cola|cola para|colas para|fila para|cola de gente|cola de mas|cola de casi|cola en|en la cola|colas en",
      `${WAIT} ~ check in|check-in|checkin|check out|recepcion|mostrador|caja|cajas|cajera|cajero|ventanilla|taquilla|entrada`,
    ],
    noise: [
      "ruido|ruidos|ruidoso|ruidosa|ruidosos|ruidosas|estruendo|escandalo|jaleo|bullicio|griterio|gritos|gritando|musica alta|musica muy alta|musica a tope|musica altisima|volumen|atronador|ensordecedor|ensordecedora|paredes de papel|se oye todo|se oia todo|se escucha todo|se escuchaba todo",
      "[no se podia/no podiamos/no se puede/no podias/imposible] [hablar/conversar/escuchar/oirnos/oir/mantener una conversacion]",
      "no pegamos ojo|no pegue ojo|no pudimos dormir|no pude dormir|imposible dormir",
    ],
    room_temperature: [
      `frio|calor|caluroso|calurosa|helado|helada|congelados|congelado|sauna|horno|asfixiante|agobiante|bochorno|sofocante|humedad ~ dentro|local|comedor|salon|sala|habitacion|interior|restaurante|aire|aire acondicionado|climatizacion|calefaccion|ventilador|ventana|abrigos|chaquetas|terraza`,
      `no funcionaba|no funciona|roto|rota|estropeado|estropeada|apagado|apagada|no habia|sin ~ aire acondicionado|aire|climatizacion|calefaccion|ventilador|radiador`,
      "con el abrigo puesto|con los abrigos puestos|con la chaqueta puesta|con las chaquetas puestas",
    ],
    cramped_seating: [
      "apretados|apretadas|apretujados|apinados|amontonados|como sardinas|pegados|pegadas|encima unos de otros|sin espacio|poco espacio|muy juntas|muy juntos|demasiado juntas|demasiado juntos|tan juntas|tan juntos|codo con codo|el codo del de al lado|sin sitio",
      `incomodo|incomoda|incomodos|incomodas|duro|duros|dura|duras|cojo|coja|cojea|cojeaba|pequena|pequenas|minusculas|diminutas|bajas|altas|rotas|rota ~ silla|sillas|asiento|asientos|banco|bancos|taburete|taburetes|sofa|mesa|mesas|banqueta|banquetas`,
    ],
  },
  exclude: {
    cold_food: [
      "cerveza [fria/fresquita/helada]",
      "[bebida/bebidas/cana/canas/agua/vino] [fria/frias/fresquita/helada/heladas]",
      "sopa fria",
      "gazpacho",
      "salmorejo",
      "helado de",
      "plato frio",
      "platos frios",
      "cafe con hielo",
      "te frio",
    ],
    bad_smell: [
      "[olia/huele/olor/olian/huelen/aroma] [a gloria/de maravilla/genial/bien/muy bien/riquisimo/delicioso/a pan/a cafe/a leña/a lena/a brasa]",
      "huele que alimenta",
    ],
    high_prices: [
      "no es caro",
      "nada caro",
      "no es nada caro",
      "cara de",
      "la cara",
      "en la cara",
      "a la cara",
      "cara dura",
      "cara larga",
      "mala cara",
      "poner cara",
      "por la cara",
      "buena cara",
    ],
    pests: ["bicho raro", "ni un bicho"],
    wrong_order: [
      "no llego a",
      "no llegaron a",
      "se olvido de avisar",
      "olvidaron avisar",
      "en vez de ir",
      "no llego tarde",
      "faltaba mas",
      "faltaria mas",
    ],
    foreign_object: [
      "como una piedra",
      "como piedra",
      "copa de cristal",
      "copas de cristal",
      "a la piedra",
      "en piedra",
      "de piedra",
      "hueso de aceituna",
    ],
    stale_food: ["pan de ayer no", "de toda la vida", "casa vieja", "ciudad vieja", "parte vieja", "ropa vieja"],
    overcooked_food: [
      "vino seco",
      "jerez seco",
      "pasado manana",
      "ano pasado",
      "pasado ano",
      "mes pasado",
      "el pasado",
      "la pasada",
      "pasada la",
      "pasado el",
      "pasadas las",
      "duro de roer",
    ],
    long_queue: ["sin cola", "sin colas", "ni cola", "cola de toro", "rabo de toro", "coca cola", "cola cao"],
    rude_staff: [
      "[por/en/de/a/hasta] [los/el/las] [borde/bordes]",
      "seco en la",
      "vino seco",
      "jerez seco",
      "chulo el sitio",
      "chula la terraza",
      "muy chulo",
      "muy chula",
      "que chulo",
      "que chula",
      "chulo y",
      "chula y",
    ],
    extra_charges: [
      "sin suplemento",
      "sin cargo",
      "ningun suplemento",
      "tasa turistica incluida",
      "aparte de",
      "aparte del",
      "aparte la",
    ],
    noise: ["sin ruido", "nada de ruido", "ruido de fondo agradable"],
    dirty_toilets: ["area de servicio", "servicio de mesa", "servicio de habitaciones"],
  },
};
