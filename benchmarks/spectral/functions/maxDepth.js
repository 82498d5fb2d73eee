// Reports properties nested deeper than `max` object/array levels below the parameters object.
module.exports = (input, options, context) => {
  const results = [];
  const walk = (schema, depth, path) => {
    if (!schema || typeof schema !== "object") return;
    if (schema.properties && typeof schema.properties === "object") {
      for (const [key, sub] of Object.entries(schema.properties)) {
        const here = [...path, "properties", key];
        if (depth + 1 > options.max) {
          results.push({ message: `${key} is nested ${depth + 1} levels deep`, path: here });
        } else {
          walk(sub, depth + 1, here);
        }
      }
    }
    if (schema.items && typeof schema.items === "object") walk(schema.items, depth + 1, [...path, "items"]);
  };
  walk(input, 0, [...context.path]);
  return results;
};
