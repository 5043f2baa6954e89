// Runs the C# step snippets (snippets/cs/, compiled with this file by tests/snippets/snippets.test.mjs)
// on the jobs written to stdin, one per line:
//   case integrator version force dt steps x y vx vy params...
// and prints every state reached: `case integrator version step x y vx vy` (17 digits); and the
// game-physics solvers' jobs, `solver case lane method ...` (RunSolver below), printing
// `case lane step body x y vx vy`. Each snippet is called through reflection by the types of its
// parameters, so a new snippet of a known shape needs nothing here.
// The forces follow the core's operation order, as in tests/snippets/forces.mjs.
using System;
using System.Collections.Generic;
using System.Globalization;
using System.Linq;
using System.Reflection;
using System.Text;

public static class SnippetRunner
{
    sealed class Job
    {
        public string Case, Integrator, Version, ForceKind;
        public double Dt, X, Y, Vx, Vy;
        public int Steps;
        public double[] P;
    }

    // One case's force as callbacks (the loop runner that snippets.test.mjs writes uses them too).
    internal sealed class Force
    {
        public Func<double, double, double, double, (double, double)> Accel, Approximated;
        public Func<double, double, double, double, double[]> Jacobian;
        public Func<double, double, double, bool, (double, double)> Dissipate;  // null: no damping
        public double Gx, Gy;
    }

    static Func<double, double, double, bool, (double, double)> ExponentialDecay(double rate) => (vx, vy, t, reverse) =>
    {
        double e = Math.Exp(-rate * t);
        return (vx * e, vy * e);
    };

    internal static Force MakeForce(string kind, double[] p)
    {
        var f = new Force();
        switch (kind)
        {
            case "spring":
            {
                double k = p[0], invM = 1.0 / p[1], b = p[2];
                f.Accel = (x, y, vx, vy) => (invM * (-k * x - b * vx), invM * (-k * y - b * vy));
                f.Jacobian = (x, y, vx, vy) => new[] { -k * invM, 0, 0, -k * invM, -b * invM, 0, 0, -b * invM };
                if (b > 0) f.Dissipate = ExponentialDecay(b * invM);
                break;
            }
            case "two_spring":
            {
                double invM = 1.0 / p[0], k1 = p[1], k2 = p[2], a1x = p[3], a1y = p[4], a2x = p[5], a2y = p[6];
                f.Accel = (x, y, vx, vy) => (invM * (-k1 * (x - a1x)) + invM * (-k2 * (x - a2x)),
                                             invM * (-k1 * (y - a1y)) + invM * (-k2 * (y - a2y)));
                f.Jacobian = (x, y, vx, vy) => new[] { (-k1 + -k2) * invM, 0, 0, (-k1 + -k2) * invM, 0, 0, 0, 0.0 };
                break;
            }
            case "elastic_pendulum":
            {
                double k = p[0], invM = 1.0 / p[1], b = p[2], rest = p[3], gx = p[4], gy = p[5];
                f.Gx = gx; f.Gy = gy;
                f.Approximated = (x, y, vx, vy) =>
                {
                    double len = Math.Sqrt(x * x + y * y);
                    double s = len == 0 ? 0.0 : -k * (len - rest) / len;
                    return (invM * (s * x - b * vx), invM * (s * y - b * vy));
                };
                var spring = f.Approximated;
                f.Accel = (x, y, vx, vy) =>
                {
                    var (ax, ay) = spring(x, y, vx, vy);
                    return (gx + ax, gy + ay);
                };
                f.Jacobian = (x, y, vx, vy) =>
                {
                    double len = Math.Sqrt(x * x + y * y);
                    if (len == 0) return new[] { 0, 0, 0, 0, -b * invM, 0, 0, -b * invM };
                    double s = rest / len, ux = x / len, uy = y / len;
                    double off = -k * (s * ux * uy) * invM;
                    return new[] { -k * ((1 - s) + s * ux * ux) * invM, off, off, -k * ((1 - s) + s * uy * uy) * invM,
                                   -b * invM, 0, 0, -b * invM };
                };
                if (b > 0) f.Dissipate = ExponentialDecay(b * invM);
                break;
            }
            case "projectile":
            {
                double invM = 1.0 / p[0], gx = p[1], gy = p[2], c = p[3];
                f.Gx = gx; f.Gy = gy;
                f.Approximated = (x, y, vx, vy) =>
                {
                    double q = c * Math.Sqrt(vx * vx + vy * vy) * invM;
                    return (-q * vx, -q * vy);
                };
                f.Accel = (x, y, vx, vy) =>
                {
                    double q = c * Math.Sqrt(vx * vx + vy * vy) * invM;
                    return (gx - q * vx, gy - q * vy);
                };
                f.Jacobian = (x, y, vx, vy) =>
                {
                    double speed = Math.Sqrt(vx * vx + vy * vy);
                    if (speed == 0) return new double[8];
                    double off = -c * (vx * vy / speed) * invM;
                    return new[] { 0, 0, 0, 0, -c * (speed + vx * vx / speed) * invM, off, off, -c * (speed + vy * vy / speed) * invM };
                };
                // Drag alone keeps the direction; the speed s goes to s/(1 + c·s·t/m).
                f.Dissipate = (vx, vy, t, reverse) =>
                {
                    double grow = 1 + c * Math.Sqrt(vx * vx + vy * vy) * invM * t;
                    return grow > 0 ? (vx / grow, vy / grow) : (double.PositiveInfinity, double.PositiveInfinity);
                };
                break;
            }
            default:
                throw new ArgumentException("unknown force " + kind);
        }
        return f;
    }

    static readonly StringBuilder Out = new StringBuilder();

    // The snippet class of an integrator id: explicit_euler -> ExplicitEuler.
    static Type SnippetClass(string id)
    {
        string name = string.Concat(id.Split('_').Select(w => char.ToUpperInvariant(w[0]) + w.Substring(1)));
        return typeof(SnippetRunner).Assembly.GetType(name) ?? throw new ArgumentException("no C# snippet for integrator " + id);
    }

    static object Make(Type t, params (string name, double value)[] fields)
    {
        object o = Activator.CreateInstance(t);  // boxed: SetValue writes into the box
        foreach (var field in fields) t.GetField(field.name).SetValue(o, field.value);
        return o;
    }

    // Calls the snippet the way a user would: StepSpring or Step, its arguments chosen by their
    // declared types (the body by ref, the carried state, the spring, h and the callbacks).
    static void Run(Job j, Force f)
    {
        Type snippet = SnippetClass(j.Integrator);
        Type bodyType = snippet.GetNestedType("Body"), springType = snippet.GetNestedType("Spring");
        Type carryType = snippet.GetNestedType("Carry");
        object carry = carryType != null ? Activator.CreateInstance(carryType) : null;
        Func<double, double, double, object> spring = (k, m, b) => Make(springType, ("K", k), ("M", m), ("B", b));
        MethodInfo method = snippet.GetMethod(j.Version == "spring" ? "StepSpring" : "Step");
        ParameterInfo[] parameters = method.GetParameters();
        var args = new object[parameters.Length];
        for (int i = 0; i < args.Length; i++)
        {
            Type type = parameters[i].ParameterType;
            switch (type.Name)
            {
                case "Body&": args[i] = Make(bodyType, ("X", j.X), ("Y", j.Y), ("Vx", j.Vx), ("Vy", j.Vy)); break;
                case "Carry": args[i] = carry; break;
                case "Spring": args[i] = spring(j.P[0], j.P[1], j.P[2]); break;
                case "Double": args[i] = j.Dt; break;
                case "Acceleration": args[i] = Delegate.CreateDelegate(type, f.Accel, "Invoke"); break;
                case "Dissipation": args[i] = f.Dissipate == null ? null : Delegate.CreateDelegate(type, f.Dissipate, "Invoke"); break;
                case "Jacobian":
                    args[i] = (ImplicitEuler.Jacobian)((x, y, vx, vy) =>
                    {
                        double[] d = f.Jacobian(x, y, vx, vy);
                        return new ImplicitEuler.Derivatives { AxX = d[0], AxY = d[1], AyX = d[2], AyY = d[3],
                                                               AxVx = d[4], AxVy = d[5], AyVx = d[6], AyVy = d[7] };
                    });
                    break;
                case "Force[]": args[i] = KinematicForces(snippet, j, f, spring); break;
                default: throw new ArgumentException($"{snippet.Name}.{method.Name}: no argument for a {type.Name}");
            }
        }
        int bodyIndex = Array.FindIndex(parameters, p => p.ParameterType.Name == "Body&");
        for (int s = 0; ; s++)
        {
            object body = args[bodyIndex];  // the ref parameter's value after the call
            Out.Append(j.Case).Append(' ').Append(j.Integrator).Append(' ').Append(j.Version).Append(' ').Append(s);
            foreach (string field in new[] { "X", "Y", "Vx", "Vy" })
                Out.Append(' ').Append(((double)bodyType.GetField(field).GetValue(body)).ToString("G17", CultureInfo.InvariantCulture));
            Out.Append('\n');
            if (s == j.Steps) break;
            method.Invoke(null, args);
        }
    }

    // The kinematic pair's forces, built with the snippet's own Gravity, SpringForce and Approximate.
    static Array KinematicForces(Type snippet, Job j, Force f, Func<double, double, double, object> spring)
    {
        Type forceType = snippet.GetNestedType("Force");
        Func<string, object[], object> make = (name, a) => snippet.GetMethod(name).Invoke(null, a);
        double[] p = j.P;
        object[] list =
            j.ForceKind == "spring" ? new[] { make("SpringForce", new[] { spring(p[0], p[1], p[2]), 0.0, 0.0 }) }
            : j.ForceKind == "two_spring" ? new[] { make("SpringForce", new[] { spring(p[1], p[0], 0), p[3], p[4] }),
                                                    make("SpringForce", new[] { spring(p[2], p[0], 0), p[5], p[6] }) }
            : new[] { make("Gravity", new object[] { f.Gx, f.Gy }),
                      make("Approximate", new object[] { Delegate.CreateDelegate(snippet.GetNestedType("Acceleration"), f.Approximated, "Invoke") }) };
        Array forces = Array.CreateInstance(forceType, list.Length);
        for (int i = 0; i < list.Length; i++) forces.SetValue(list[i], i);
        return forces;
    }

    // ---- The game-physics solvers: bodies and distance constraints ----
    // A job line (every double as its bits in hex):
    //   solver CASE LANE METHOD SUBSTEPS ITERATIONS STIFFNESS DT STEPS GX GY BODY_DAMPING SPRING_DAMPING
    //     N (x y vx vy invMass)×N  R (i j ax ay rest compliance damping)×R
    // Steps the bodies with the snippet's Step, S calls of h = dt/S a step with the lane's
    // iterations (and PBD's stiffness: Step's parameters after accel are taken in order).
    static void RunSolver(string[] t)
    {
        int at = 1;
        Func<string> next = () => t[at++];
        Func<double> bits = () => BitConverter.Int64BitsToDouble(unchecked((long)Convert.ToUInt64(next(), 16)));
        Func<int> integer = () => int.Parse(next(), CultureInfo.InvariantCulture);
        string caseId = next(), lane = next(), method = next();
        int substeps = integer(), iterations = integer();
        double stiffness = bits(), dt = bits();
        int steps = integer();
        double gx = bits(), gy = bits(), bodyDamping = bits(), springDamping = bits();
        Type snippet = SnippetClass(method);
        Type bodyType = snippet.GetNestedType("Body"), constraintType = snippet.GetNestedType("Constraint");
        int n = integer();
        Array bodies = Array.CreateInstance(bodyType, n);
        for (int b = 0; b < n; b++)
            bodies.SetValue(Make(bodyType, ("X", bits()), ("Y", bits()), ("Vx", bits()), ("Vy", bits()), ("InvMass", bits())), b);
        int r = integer();
        Array constraints = Array.CreateInstance(constraintType, r);
        for (int q = 0; q < r; q++)
        {
            object c = Activator.CreateInstance(constraintType);
            constraintType.GetField("I").SetValue(c, integer());
            constraintType.GetField("J").SetValue(c, integer());
            foreach (string field in new[] { "Ax", "Ay", "Rest", "Compliance", "Damping" }) constraintType.GetField(field).SetValue(c, bits());
            constraints.SetValue(c, q);
        }
        // The external acceleration in the core's order (core/system.cpp, solver_external_accelerations).
        Func<double, double, double, (double, double)> external = (invMass, vx, vy) =>
        {
            double ax = gx - (bodyDamping * invMass) * vx;
            double ay = gy - (bodyDamping * invMass) * vy;
            ax -= invMass * (springDamping * vx);
            ay -= invMass * (springDamping * vy);
            return (ax, ay);
        };
        FieldInfo invMassField = bodyType.GetField("InvMass"), vxField = bodyType.GetField("Vx"), vyField = bodyType.GetField("Vy");
        Func<object, (double, double)> accel = body =>
            external((double)invMassField.GetValue(body), (double)vxField.GetValue(body), (double)vyField.GetValue(body));
        Type accelType = snippet.GetNestedType("Acceleration");
        MethodInfo step = snippet.GetMethod("Step");
        ParameterInfo[] parameters = step.GetParameters();
        // bodies, constraints, h, accel, iterations, then PBD's stiffness.
        var args = new object[parameters.Length];
        args[0] = bodies;
        args[1] = constraints;
        args[2] = dt / substeps;
        args[3] = Delegate.CreateDelegate(accelType, new Adapter(accel), typeof(Adapter).GetMethod("Call").MakeGenericMethod(bodyType));
        args[4] = iterations;
        for (int i = 5; i < args.Length; i++)
            args[i] = parameters[i].Name == "stiffness" ? stiffness : parameters[i].DefaultValue;
        string[] fields = { "X", "Y", "Vx", "Vy" };
        for (int s = 0; ; s++)
        {
            for (int b = 0; b < n; b++)
            {
                object body = bodies.GetValue(b);
                Out.Append(caseId).Append(' ').Append(lane).Append(' ').Append(s).Append(' ').Append(b);
                foreach (string field in fields)
                    Out.Append(' ').Append(((double)bodyType.GetField(field).GetValue(body)).ToString("G17", CultureInfo.InvariantCulture));
                Out.Append('\n');
            }
            if (s == steps) break;
            for (int k = 0; k < substeps; k++) step.Invoke(null, args);
        }
    }

    // A snippet's Acceleration delegate (its Body type as the parameter) around a function of the boxed body.
    sealed class Adapter
    {
        readonly Func<object, (double, double)> f;
        public Adapter(Func<object, (double, double)> function) { f = function; }
        public (double ax, double ay) Call<TBody>(TBody body) => f(body);
    }

    public static int Main()
    {
        string line;
        while ((line = Console.In.ReadLine()) != null)
        {
            string[] t = line.Split(new[] { ' ' }, StringSplitOptions.RemoveEmptyEntries);
            if (t.Length == 0) continue;
            if (t[0] == "solver")
            {
                RunSolver(t);
                continue;
            }
            Func<int, double> num = i => double.Parse(t[i], CultureInfo.InvariantCulture);
            var j = new Job
            {
                Case = t[0], Integrator = t[1], Version = t[2], ForceKind = t[3], Dt = num(4),
                Steps = int.Parse(t[5], CultureInfo.InvariantCulture), X = num(6), Y = num(7), Vx = num(8), Vy = num(9),
                P = t.Skip(10).Select(s => double.Parse(s, CultureInfo.InvariantCulture)).ToArray(),
            };
            Run(j, MakeForce(j.ForceKind, j.P));
        }
        Console.Out.Write(Out.ToString());
        return 0;
    }
}
